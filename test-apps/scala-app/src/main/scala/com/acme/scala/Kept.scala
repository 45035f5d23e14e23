package com.acme.scala

import scala.collection.mutable

/**
 * Samples kept in a buffer two ways: `keep` appends and drops what `+=` returns (a put-style
 * call site `suggest` proposes: a declined append is skipped), `both` chains `addOne` on what the
 * first one returns (no candidate: a skipped call returns null, and the chain would go on with it).
 */
class Kept {
  private val seen = mutable.ArrayBuffer[Array[Byte]]()

  /** Keeps `b`; returns it. */
  def keep(b: Array[Byte]): Array[Byte] = {
    seen += b
    b
  }

  /** Keeps `a` and `b`; returns how many are kept. */
  def both(a: Array[Byte], b: Array[Byte]): Int = seen.addOne(a).addOne(b).size
}
