package org.flodl.budget.agent.config;

import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * A sites file's text, read safely: only a regular file of text, of at most a given size, UTF-8 or
 * else ISO-8859-1; anything else is a {@link ConfigException} naming the file.
 */
final class SitesFileText {
  private SitesFileText() {}

  /**
   * Returns the text of {@code path}, read only if it is a regular file of at most {@code max}
   * bytes: a FIFO, a device ({@code /dev/zero}) or a directory is refused before it is opened, so
   * nothing blocks and nothing is read without end.
   */
  static String read(Path path, int max) throws ConfigException {
    BasicFileAttributes attrs;
    try {
      attrs = Files.readAttributes(path, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      throw unreadable(path, "no such file", e);
    } catch (AccessDeniedException e) {
      throw unreadable(path, "permission denied", e);
    } catch (IOException | RuntimeException e) {
      throw unreadable(path, String.valueOf(e.getMessage()), e);
    }
    if (attrs.isDirectory()) {
      throw unreadable(path, "it is a directory", null);
    }
    if (!attrs.isRegularFile()) {
      throw unreadable(path, "not a regular file (a pipe, a device or a socket)", null);
    }
    if (attrs.size() > max) {
      throw unreadable(
          path,
          "it is " + attrs.size() + " bytes, more than the " + max + " a sites file may have",
          null);
    }
    byte[] bytes;
    // java.io, not a java.nio channel: the JVM has loaded its classes already (the channel's are
    // 25 more at start-up). The checks above followed a link to its target, as this does.
    try (InputStream in = new FileInputStream(path.toFile())) {
      bytes = in.readNBytes(max + 1);
    } catch (FileNotFoundException e) {
      String m = String.valueOf(e.getMessage());
      throw unreadable(path, m.contains("Permission denied") ? "permission denied" : m, e);
    } catch (IOException | RuntimeException e) {
      throw unreadable(path, String.valueOf(e.getMessage()), e);
    }
    if (bytes.length > max) {
      throw unreadable(path, "it is more than the " + max + " bytes a sites file may have", null);
    }
    if (!isText(bytes)) {
      throw unreadable(path, "it is not text (it holds control bytes: a binary file?)", null);
    }
    try {
      return StandardCharsets.UTF_8
          .newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .onUnmappableCharacter(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes))
          .toString();
    } catch (CharacterCodingException e) {
      return new String(bytes, StandardCharsets.ISO_8859_1);
    }
  }

  /**
   * Returns whether {@code bytes} read as text: no NUL and no control bytes but tab, LF, CR, FF.
   */
  static boolean isText(byte[] bytes) {
    for (byte b : bytes) {
      if (b >= 0 && b < 0x20 && b != '\t' && b != '\n' && b != '\r' && b != '\f') {
        return false;
      }
      if (b == 0x7f) {
        return false;
      }
    }
    return true;
  }

  private static ConfigException unreadable(Path path, String why, Exception cause) {
    String p = Text.clip(String.valueOf(path), 120);
    return new ConfigException(
        Option.SITES.key(),
        "cannot read sites file '"
            + p
            + "' (sites="
            + p
            + "): "
            + why
            + "; expected a readable Java properties file of site.NAME.FIELD entries",
        cause);
  }
}
