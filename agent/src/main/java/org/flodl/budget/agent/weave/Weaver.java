package org.flodl.budget.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.method.ParameterDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.implementation.bytecode.assign.Assigner;
import net.bytebuddy.matcher.ElementMatchers;
import net.bytebuddy.pool.TypePool;

/**
 * Weaves the advice of each point into one class file, without {@code AgentBuilder}: the class
 * is described from the bytes the JVM handed the transformer, redefined with class format
 * changes disabled (no new members, so retransformation works) and the advice of each point
 * applied in turn. A point that cannot be woven (no such method, an ambiguous overload, a bad
 * argument index or type) is reported and skipped; the other points of the class still apply.
 * This is the first class of the agent that touches ByteBuddy.
 */
final class Weaver {
  private static final String ADVICES = Advices.class.getName();
  private static final ClassFileLocator ADVICE_LOCATOR = ByteBuddies.ADVICE_LOCATOR;
  private static final TypePool ADVICE_POOL = ByteBuddies.ADVICE_POOL;
  private static final ByteBuddy BYTE_BUDDY = ByteBuddies.BYTE_BUDDY;

  private Weaver() {}

  /** Returns the woven class file, or null when no point could be woven. */
  static byte[] weave(
      ClassLoader loader,
      String internalName,
      byte[] original,
      List<WeavePoint> points,
      WeaveListener listener) {
    String binaryName = internalName.replace('/', '.');
    byte[] current = original;
    boolean changed = false;
    for (WeavePoint point : points) {
      try {
        byte[] next = weaveOne(loader, binaryName, current, point);
        current = next;
        changed = true;
        listener.woven(binaryName, point);
      } catch (WeaveException e) {
        listener.failed(binaryName, point, e.getMessage());
      } catch (RuntimeException | LinkageError e) {
        listener.failed(binaryName, point, "ByteBuddy could not weave it: " + e);
      }
    }
    return changed ? current : null;
  }

  private static byte[] weaveOne(
      ClassLoader loader, String binaryName, byte[] bytes, WeavePoint point) throws WeaveException {
    ClassFileLocator locator =
        new ClassFileLocator.Compound(
            ClassFileLocator.Simple.of(binaryName, bytes), ClassFileLocator.ForClassLoader.of(loader));
    TypePool pool =
        new TypePool.Default.WithLazyResolution(
            new TypePool.CacheProvider.Simple(), locator, TypePool.Default.ReaderMode.FAST);
    TypeDescription type = pool.describe(binaryName).resolve();
    MethodDescription method = method(type, point);
    Advice advice = advice(method, point);
    return BYTE_BUDDY
        .redefine(type, locator)
        .visit(advice.on(ElementMatchers.is(method)))
        .make()
        .getBytes();
  }

  /** Returns the one declared method the point names, or throws saying why none is. */
  static MethodDescription method(TypeDescription type, WeavePoint point) throws WeaveException {
    boolean constructor = "<init>".equals(point.methodName());
    List<MethodDescription> candidates = new ArrayList<>();
    for (MethodDescription.InDefinedShape m : type.getDeclaredMethods()) {
      boolean nameMatches =
          constructor ? m.isConstructor() : m.isMethod() && m.getName().equals(point.methodName());
      if (nameMatches && parametersMatch(m, point.parameterTypes())) {
        candidates.add(m);
      }
    }
    if (candidates.isEmpty()) {
      throw new WeaveException("no method " + point.methodText() + " declared in " + type.getName());
    }
    if (candidates.size() > 1) {
      List<String> found = new ArrayList<>();
      for (MethodDescription m : candidates) {
        found.add(m.toGenericString());
      }
      throw new WeaveException(
          point.methodText() + " matches " + candidates.size()
              + " overloads, give the parameter types: " + found);
    }
    MethodDescription m = candidates.get(0);
    if (m.isAbstract() || m.isNative()) {
      throw new WeaveException(point.methodText() + " has no body to advise (abstract or native)");
    }
    return m;
  }

  private static boolean parametersMatch(MethodDescription m, List<String> wanted) {
    if (wanted == null) {
      return true;
    }
    List<? extends ParameterDescription> params = m.getParameters();
    if (params.size() != wanted.size()) {
      return false;
    }
    for (int i = 0; i < params.size(); i++) {
      TypeDescription t = params.get(i).getType().asErasure();
      String w = wanted.get(i).trim();
      if (!w.equals(t.getActualName()) && !w.equals(t.getName())
          && !w.equals(t.getSimpleName())) {
        return false;
      }
    }
    return true;
  }

  /** Returns the advice for the point, checking first what ByteBuddy would refuse later. */
  static Advice advice(MethodDescription method, WeavePoint point) throws WeaveException {
    Advice.WithCustomMapping mapping = Advice.withCustomMapping().bind(SiteId.class, point.id());
    String adviceClass;
    switch (point.role()) {
      case CACHE_ADMIT:
        if (method.isConstructor()) {
          throw new WeaveException(
              "cache-admit cannot skip a constructor; name the method that stores the value");
        }
        TypeDefinition valueType = argument(method, point).getType();
        if (valueType.isPrimitive()) {
          throw new WeaveException("argument " + point.argumentIndex() + " of "
              + point.methodText() + " is a " + valueType.getTypeName() + ", not a retained value");
        }
        mapping = mapping.bind(SiteArgument.class,
            new Advice.OffsetMapping.ForArgument.Unresolved(
                TypeDescription.Generic.OfNonGenericType.ForLoadedType.of(Object.class),
                false, Assigner.Typing.DYNAMIC, point.argumentIndex()));
        adviceClass = ADVICES + "$CacheAdmit";
        break;
      case DEPTH_ARGUMENT:
        TypeDefinition depthType = argument(method, point).getType();
        if (!depthType.represents(int.class)) {
          throw new WeaveException("depth argument " + point.argumentIndex() + " of "
              + point.methodText() + " is a " + depthType.getTypeName() + ", expected int");
        }
        mapping = mapping.bind(SiteArgument.class,
            new Advice.OffsetMapping.ForArgument.Unresolved(
                TypeDescription.Generic.OfNonGenericType.ForLoadedType.of(int.class),
                false, Assigner.Typing.STATIC, point.argumentIndex()));
        adviceClass = ADVICES + "$DepthArgument";
        break;
      case DEPTH_RETURN:
        if (!method.getReturnType().represents(int.class)) {
          throw new WeaveException("depth=return needs " + point.methodText()
              + " to return int, it returns " + method.getReturnType().getTypeName());
        }
        adviceClass = ADVICES + "$DepthReturn";
        break;
      case RELEASE:
        adviceClass = ADVICES + "$Release";
        break;
      case BATCH:
        if (method.isConstructor() || method.getReturnType().represents(void.class)) {
          throw new WeaveException("batch site " + point.methodText() + " returns nothing to price");
        }
        adviceClass = ADVICES + "$Batch";
        break;
      default:
        throw new WeaveException("unknown role " + point.role());
    }
    return mapping.to(ADVICE_POOL.describe(adviceClass).resolve(), ADVICE_LOCATOR);
  }

  private static ParameterDescription argument(MethodDescription method, WeavePoint point)
      throws WeaveException {
    int index = point.argumentIndex();
    int count = method.getParameters().size();
    if (index < 0 || index >= count) {
      throw new WeaveException("argument index " + index + " is out of range for "
          + point.methodText() + ", which takes " + count + " argument(s)");
    }
    return method.getParameters().get(index);
  }

  /** A point the weaver refuses, with the one line that says why. */
  static final class WeaveException extends Exception {
    private static final long serialVersionUID = 1L;

    WeaveException(String message) {
      super(message, null, false, false);
    }
  }
}
