package org.flodl.budget.agent.config;

import org.flodl.budget.agent.library.Log;

/** Returns text fit for one line of the agent's stderr: printable, and bounded in length. */
public final class Text {
  private Text() {}

  /**
   * Returns {@code s} with every control or non-printable character escaped, cut to at most {@code
   * max} characters: {@link Log#clip}.
   */
  public static String clip(String s, int max) {
    return Log.clip(s, max);
  }

  /**
   * Returns whether {@code s} is a site name: 1 to 64 letters, numbers and {@code . _ : -} (any
   * script's letters and numbers, as {@code [\\p{L}\\p{N}_.:-]{1,64}} reads).
   */
  static boolean isSiteName(String s) {
    int count = 0;
    for (int i = 0; i < s.length(); ) {
      int cp = s.codePointAt(i);
      int type = Character.getType(cp);
      boolean number =
          type == Character.DECIMAL_DIGIT_NUMBER
              || type == Character.LETTER_NUMBER
              || type == Character.OTHER_NUMBER;
      if (!Character.isLetter(cp) && !number && "_.:-".indexOf(cp) < 0) {
        return false;
      }
      count++;
      i += Character.charCount(cp);
    }
    return count >= 1 && count <= 64;
  }

  /** The white space of {@code \s} in a regular expression: space, tab, the line breaks. */
  static final String WHITESPACE = " \t\n\u000b\f\r";

  /** Returns whether {@code s} is {@code min} to {@code max} ASCII digits. */
  static boolean isDigits(String s, int min, int max) {
    if (s.length() < min || s.length() > max) {
      return false;
    }
    for (int i = 0; i < s.length(); i++) {
      if (s.charAt(i) < '0' || s.charAt(i) > '9') {
        return false;
      }
    }
    return true;
  }

  /** Returns the words of {@code s} between runs of commas, colons and white space. */
  static java.util.List<String> words(String s) {
    java.util.List<String> out = new java.util.ArrayList<>();
    int start = -1;
    for (int i = 0; i <= s.length(); i++) {
      boolean sep =
          i == s.length()
              || s.charAt(i) == ','
              || s.charAt(i) == ':'
              || WHITESPACE.indexOf(s.charAt(i)) >= 0;
      if (sep && start >= 0) {
        out.add(s.substring(start, i));
        start = -1;
      } else if (!sep && start < 0) {
        start = i;
      }
    }
    return out;
  }
}
