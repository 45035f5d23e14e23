package com.acme.it;

/** A value whose pricer (PoisonPricer) always throws: the agent must let the app run on. */
public final class Poison {
  final byte[] payload;

  Poison(int bytes) {
    this.payload = new byte[bytes];
  }
}
