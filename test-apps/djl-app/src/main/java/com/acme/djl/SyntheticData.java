package com.acme.djl;

import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDManager;
import ai.djl.ndarray.types.Shape;
import java.util.SplittableRandom;

/**
 * Seeded synthetic regression data: features uniform in [-1, 1), the target a fixed linear map plus a
 * product of the first two features, so a small MLP can learn it and its loss falls epoch by epoch.
 */
final class SyntheticData {

    private SyntheticData() {
    }

    /** Returns {features (samples x features), labels (samples x 1)} created in {@code manager}. */
    static NDArray[] regression(NDManager manager, int samples, int features, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        float[] weights = new float[features];
        for (int j = 0; j < features; j++) {
            weights[j] = (float) (random.nextDouble() * 2 - 1);
        }
        float[] x = new float[samples * features];
        float[] y = new float[samples];
        for (int i = 0; i < samples; i++) {
            double target = 0;
            for (int j = 0; j < features; j++) {
                float v = (float) (random.nextDouble() * 2 - 1);
                x[i * features + j] = v;
                target += weights[j] * v;
            }
            if (features > 1) {
                target += 2 * x[i * features] * x[i * features + 1];
            }
            y[i] = (float) target;
        }
        return new NDArray[] {
            manager.create(x, new Shape(samples, features)),
            manager.create(y, new Shape(samples, 1))
        };
    }
}
