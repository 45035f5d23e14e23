package org.flodl.budget.agent.suggest;

import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;

/**
 * A call on the object one of the class's fields holds (a removal from a cache, a take from a
 * queue): the method that makes it, the call and its source line.
 *
 * @param m the method of the class that makes the call
 * @param call the call
 * @param line the call's source line ({@code Dataset.java:42}), or null
 */
record FieldCall(MethodNode m, MethodInsnNode call, String line) {}
