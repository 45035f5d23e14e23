package com.acme.it;

import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Counts the words of a generated text with a HashMap and Strings made from char arrays (the JDK
 * code a careless site would name), and prints the counts in order: the same bytes every run.
 */
public final class WordCount {
  private WordCount() {}

  public static void main(String[] args) {
    char[] letters = "abcdefghij".toCharArray();
    Map<String, Integer> counts = new HashMap<>();
    long seed = 42;
    for (int i = 0; i < 200_000; i++) {
      seed = seed * 6364136223846793005L + 1442695040888963407L;
      int len = 1 + (int) ((seed >>> 33) % 3);
      int at = (int) ((seed >>> 40) % (letters.length - len));
      String word = new String(letters, at, len);
      counts.put(word, counts.getOrDefault(word, 0) + 1);
    }
    for (Map.Entry<String, Integer> e : new TreeMap<>(counts).entrySet()) {
      System.out.println(e.getKey() + " " + e.getValue());
    }
  }
}
