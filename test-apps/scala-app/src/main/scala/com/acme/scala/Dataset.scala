package com.acme.scala

import scala.collection.mutable

/**
 * A dataset that decodes each sample once and memoizes it: an unbounded cache of every sample
 * it was ever asked for, in a field. Samples depend only on their id.
 */
class Dataset(val size: Int, sampleBytes: Int) {
  private val cache = mutable.HashMap[Int, Array[Byte]]()

  /** Returns sample `i`, decoded on its first request. */
  def get(i: Int): Array[Byte] = cache.getOrElseUpdate(i, decode(i))

  /** Returns how many samples the cache holds. */
  def cached: Int = cache.size

  private def decode(i: Int): Array[Byte] = {
    val b = new Array[Byte](sampleBytes)
    var j = 0
    while (j < b.length) {
      b(j) = ((i * 31 + j / 4096) & 0xff).toByte
      j += 4096
    }
    b
  }
}

object Dataset {
  /** Returns a hash of sample `i`'s content as the dataset makes it. */
  def contentHash(i: Int, b: Array[Byte]): Long = {
    var h = 1125899906842597L + i
    var j = 0
    while (j < b.length) {
      h = 31 * h + b(j)
      j += 4096
    }
    h
  }
}
