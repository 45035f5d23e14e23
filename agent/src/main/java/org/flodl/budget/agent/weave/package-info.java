/**
 * The weaving: which classes the sites' rules apply to, decided from class files as each class
 * loads ({@link Planner}), and the calls to {@code Gate} written into them ({@link Weaver}, one
 * method at a time), both driven by the agent's one transformer ({@link SiteTransformer}).
 *
 * <p>Bodies: a value argument goes to {@code Gate.admit} at entry and comes back as the value to
 * retain or as {@code Gate.DECLINED} (the method then returns its default: nothing, null, false or
 * 0, after the site's decline call); a returned value goes to {@code Gate.returned} before each
 * return (a declined one is evicted by the decline call); both count, per thread, the woven bodies
 * of their site the thread is in, so that when they nest (an override calling {@code super}) the
 * outermost decides: an exception handler of its own, after the method's own, keeps that count
 * right when the method throws. Depth arguments and returns, releases and batches are single calls.
 *
 * <p>Calls: the arguments are kept in fresh local slots (past every local live at the call), the
 * gate decides, and the call runs with the admitted value or the policy's depth, or, declined, is
 * skipped: its receiver and arguments dropped and its return type's default pushed.
 *
 * <p>Shapes: a body and a call are held to the same rules before anything is written (the value
 * argument an object, a depth an int, a decline called on a receiver, no constructor skipped); a
 * rule a method or call does not fit is reported with its reason, and the rest of the class is
 * woven.
 *
 * <p>Slots and frames: where the inserted code branches, its stack-map frames are the ones ASM's
 * {@link org.objectweb.asm.commons.AnalyzerAdapter} tracks through the method, so no class is
 * loaded to compute them; a class file older than Java 6 has no frames and gets none, and its fresh
 * slots start past the method's max locals.
 */
package org.flodl.budget.agent.weave;
