/**
 * The gate: what woven code calls ({@link org.flodl.budget.agent.gate.Gate}), the engine behind it
 * ({@link org.flodl.budget.agent.gate.GateEngine}, its point registry, admissions, depths and
 * periodic events), the budgets the decisions are taken against, and the holdings that keep the
 * books of what the caches retain.
 *
 * <h2>Holdings</h2>
 *
 * <p>Each admitted value is one {@code Holding}, a weak reference to it that carries the bytes
 * reserved for it, so a release site that sees the value (as an argument or a return value) hands
 * its bytes back, and a value the cache drops without a release site hands them back when it is
 * collected (the reference is enqueued and a daemon thread, {@code flodl-budget-release}, releases
 * it).
 *
 * <p>Each release happens exactly once. A release site finds the holding by its live value, unlinks
 * it and marks its link released, keeping the value alive until it has handed the bytes back. The
 * collector enqueues only a holding whose value it found dead, which no release site can match any
 * more (a release site holds the value it looks up); it may still enqueue a holding a site released
 * (a young collection reaches garbage through old garbage), and the releaser passes by the marked
 * ones. No field is added for the mark: it is the link, which an unlinked holding no longer needs.
 *
 * <p>The holdings live in an identity table of their own: 1,024 segments by the value's identity
 * hash, each a chained hash table under its own lock, the holdings themselves the chain links. A
 * holding is 40 bytes (a weak reference, 28, and its account, bytes and link, 4 each: the hash is
 * not kept, a resize reads it from the value again), and the buckets 4 to 8 bytes more a value (a
 * table doubles past one holding a bucket; it halves under one in eight at the releaser's sweep, or
 * when the probe thread finds it so at two passes running, never on a deciding thread: a cache
 * emptied at an epoch's end and refilled by the next keeps its buckets). A collected value's
 * holding is unlinked by the next pass over its bucket, or by the releaser's sweep once the
 * collected holdings are a quarter of what a sweep walks (the linked holdings and the buckets). One
 * allocation per admission (the holding), none per release.
 *
 * <p>Two threads admitting at once take different segments' locks, but the segment a value hashes
 * to was as likely written last by another thread's core: an admission writes two cache lines other
 * threads write too (the segment's lock and count, and the bucket), which is what a second thread
 * costs each admission (docs/BENCHMARKS.md, "Scaling").
 */
package org.flodl.budget.agent.gate;
