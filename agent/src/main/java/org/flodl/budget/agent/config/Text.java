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
        b.append("\\x").append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
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

  private static boolean printable(char c) {
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == 0x2028 || c == 0x2029) {
      return false;
    }
    if (Character.isSurrogate(c)) {
      return false; // a half of a pair on its own, or a pair: escaped either way, it is rare
    }
    int type = Character.getType(c);
    return type != Character.UNASSIGNED && type != Character.CONTROL && type != Character.FORMAT
        && type != Character.PRIVATE_USE;
  }
}
