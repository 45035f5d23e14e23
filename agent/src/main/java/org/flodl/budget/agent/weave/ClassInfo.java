package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What the weaver needs to know of a class without loading it, read straight from its class file:
 * its name, its direct supertypes, whether it is an interface, and the methods it declares whose
 * names a site cares about. Reading it walks the constant pool once and skips everything else.
 *
 * @param name the internal name, {@code com/acme/Cache}
 * @param superName the superclass's internal name, null for {@code java/lang/Object}
 * @param interfaces the direct superinterfaces' internal names
 * @param access the class's access flags
 * @param version the class file's major version
 * @param methods the declared methods whose names are in the reader's set
 */
record ClassInfo(
    String name,
    String superName,
    List<String> interfaces,
    int access,
    int version,
    List<Method> methods) {

  static final int ACC_INTERFACE = 0x0200;
  static final int ACC_STATIC = 0x0008;
  static final int ACC_ABSTRACT = 0x0400;
  static final int ACC_NATIVE = 0x0100;
  static final int ACC_BRIDGE = 0x0040;

  /** A declared method: its name, descriptor and access flags. */
  record Method(String name, String descriptor, int access) {
    /** Returns whether the method has code the weaver can insert into. */
    boolean hasBody() {
      return (access & (ACC_ABSTRACT | ACC_NATIVE)) == 0;
    }

    boolean isStatic() {
      return (access & ACC_STATIC) != 0;
    }

    boolean isBridge() {
      return (access & ACC_BRIDGE) != 0;
    }

    /**
     * Equal when name, descriptor and access are, written out: the record's generated {@code
     * equals} bootstraps method handles at its first call (tens of milliseconds while a class is
     * woven at start-up, StartPathIT's count).
     */
    @Override
    public boolean equals(Object o) {
      if (o == this) {
        return true;
      }
      if (!(o instanceof Method)) {
        return false;
      }
      Method m = (Method) o;
      return access == m.access && name.equals(m.name) && descriptor.equals(m.descriptor);
    }

    @Override
    public int hashCode() {
      return (name.hashCode() * 31 + descriptor.hashCode()) * 31 + access;
    }
  }

  /** Returns whether the class is an interface. */
  boolean isInterface() {
    return (access & ACC_INTERFACE) != 0;
  }

  /** Returns the direct supertypes: the superclass (if any) and the interfaces. */
  List<String> supertypes() {
    List<String> s = new ArrayList<>(interfaces.size() + 1);
    if (superName != null) {
      s.add(superName);
    }
    s.addAll(interfaces);
    return s;
  }

  /**
   * Returns the class file {@code b} describes, keeping the methods named in {@code methodNames};
   * throws {@link IllegalArgumentException} when {@code b} is no class file.
   */
  static ClassInfo read(byte[] b, Set<String> methodNames) {
    try {
      return new Reader(b).read(methodNames);
    } catch (IndexOutOfBoundsException e) {
      throw new IllegalArgumentException("a truncated class file", e);
    }
  }

  /** A cursor over one class file. */
  private static final class Reader {
    private final byte[] b;
    private int[] offsets;

    Reader(byte[] b) {
      this.b = b;
    }

    ClassInfo read(Set<String> methodNames) {
      if (u4(0) != 0xCAFEBABE) {
        throw new IllegalArgumentException("not a class file");
      }
      int major = u2(6);
      int count = u2(8);
      offsets = new int[count];
      int p = 10;
      for (int i = 1; i < count; i++) {
        offsets[i] = p;
        int tag = b[p] & 0xFF;
        switch (tag) {
          case 1:
            p += 3 + u2(p + 1);
            break; // Utf8
          case 3:
          case 4:
            p += 5;
            break; // Integer, Float
          case 5:
          case 6:
            p += 9;
            i++;
            break; // Long, Double: two slots
          case 7:
          case 8:
          case 16:
          case 19:
          case 20:
            p += 3;
            break; // Class, String, MethodType, Module, Package
          case 9:
          case 10:
          case 11:
          case 12:
          case 17:
          case 18:
            p += 5;
            break;
          case 15:
            p += 4;
            break; // MethodHandle
          default:
            throw new IllegalArgumentException("bad constant pool tag " + tag);
        }
      }
      int access = u2(p);
      String name = className(u2(p + 2));
      int superIndex = u2(p + 4);
      String superName = superIndex == 0 ? null : className(superIndex);
      int n = u2(p + 6);
      p += 8;
      List<String> interfaces = new ArrayList<>(n);
      for (int i = 0; i < n; i++) {
        interfaces.add(className(u2(p)));
        p += 2;
      }
      p = skipMembers(p); // fields
      int methods = u2(p);
      p += 2;
      List<Method> kept = new ArrayList<>();
      for (int i = 0; i < methods; i++) {
        int flags = u2(p);
        String mName = methodNames.isEmpty() ? null : utf8(u2(p + 2));
        if (mName != null && methodNames.contains(mName)) {
          kept.add(new Method(mName, utf8(u2(p + 4)), flags));
        }
        p = skipAttributes(p + 6);
      }
      return new ClassInfo(
          name,
          "java/lang/Object".equals(name) ? null : superName,
          List.copyOf(interfaces),
          access,
          major,
          List.copyOf(kept));
    }

    private int skipMembers(int p) {
      int n = u2(p);
      p += 2;
      for (int i = 0; i < n; i++) {
        p = skipAttributes(p + 6);
      }
      return p;
    }

    private int skipAttributes(int p) {
      int n = u2(p);
      p += 2;
      for (int i = 0; i < n; i++) {
        p += 6 + u4(p + 2);
      }
      return p;
    }

    private String className(int index) {
      return utf8(u2(offsets[index] + 1));
    }

    /** Decodes the modified UTF-8 of constant {@code index}. */
    private String utf8(int index) {
      int p = offsets[index];
      int len = u2(p + 1);
      int start = p + 3;
      char[] out = new char[len];
      int n = 0;
      for (int i = start; i < start + len; ) {
        int c = b[i++] & 0xFF;
        if (c < 0x80) {
          out[n++] = (char) c;
        } else if ((c & 0xE0) == 0xC0) {
          out[n++] = (char) (((c & 0x1F) << 6) | (b[i++] & 0x3F));
        } else {
          out[n++] = (char) (((c & 0x0F) << 12) | ((b[i++] & 0x3F) << 6) | (b[i++] & 0x3F));
        }
      }
      return new String(out, 0, n);
    }

    private int u2(int p) {
      return ((b[p] & 0xFF) << 8) | (b[p + 1] & 0xFF);
    }

    private int u4(int p) {
      return ((b[p] & 0xFF) << 24)
          | ((b[p + 1] & 0xFF) << 16)
          | ((b[p + 2] & 0xFF) << 8)
          | (b[p + 3] & 0xFF);
    }
  }
}
