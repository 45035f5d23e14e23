package org.flodl.budget.agent.config;

/** Returns text fit for one line of the agent's stderr: printable, and bounded in length. */
public final class Text {
  private Text() {}

  /**
   * Returns {@code s} with every control or non-printable character escaped ({@code \x1b}, {@code
   * \u2028}) and cut to at most {@code max} characters, ending {@code ...} when cut.
   */
  public static String clip(String s, int max) {
    if (s == null) {
      return "null";
    }
    StringBuilder b = new StringBuilder(Math.min(s.length(), max) + 8);
    int i = 0;
    for (; i < s.length() && b.length() < max; i++) {
      char c = s.charAt(i);
      if (printable(c)) {
        b.append(c);
      } else if (c < 0x100) {
        b.append("\\x")
            .append(Character.forDigit(c >> 4, 16))
            .append(Character.forDigit(c & 15, 16));
      } else {
        b.append("\\u");
        for (int shift = 12; shift >= 0; shift -= 4) {
          b.append(Character.forDigit((c >> shift) & 15, 16));
        }
      }
    }
    if (i < s.length() || b.length() > max) {
      b.setLength(Math.max(0, Math.min(b.length(), max) - 3));
      b.append("...");
    }
    return b.toString();
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

  private static boolean printable(char c) {
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029) {
      return false;
    }
    if (Character.isSurrogate(c)) {
      return false; // a half of a pair on its own, or a pair: escaped either way, it is rare
    }
    int type = Character.getType(c);
    return type != Character.UNASSIGNED
        && type != Character.CONTROL
        && type != Character.FORMAT
        && type != Character.PRIVATE_USE;
  }
}
