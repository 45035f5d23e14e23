package com.acme.it;

import net.bytebuddy.ByteBuddy;
import net.bytebuddy.implementation.FixedValue;
import net.bytebuddy.matcher.ElementMatchers;

/**
 * An application that ships its own ByteBuddy and uses it while the agent weaves its cache: prints
 * where its ByteBuddy came from and what a generated class returns.
 */
public final class OwnByteBuddyApp {
  public static void main(String[] args) throws Exception {
    Class<?> generated =
        new ByteBuddy()
            .subclass(Object.class)
            .method(ElementMatchers.named("toString"))
            .intercept(FixedValue.value("generated"))
            .make()
            .load(OwnByteBuddyApp.class.getClassLoader())
            .getLoaded();
    System.out.println("TOSTRING=" + generated.getDeclaredConstructor().newInstance());
    System.out.println(
        "LOADER="
            + (ByteBuddy.class.getClassLoader() == ClassLoader.getSystemClassLoader()
                ? "app"
                : String.valueOf(ByteBuddy.class.getClassLoader())));
    SampleStore store = new SampleStore();
    for (int i = 0; i < 300; i++) {
      store.put(i, new byte[1 << 20]);
    }
    System.out.println("CACHED=" + store.size());
    System.out.println("DONE");
  }
}
