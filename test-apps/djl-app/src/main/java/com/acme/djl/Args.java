package com.acme.djl;

import ai.djl.Device;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;

/** Parsing of {@code --key=value} options over defaults; an unknown key is an error naming it. */
final class Args {

    private Args() {
    }

    /** Returns {@code defaults} overridden by {@code args}. */
    static Map<String, String> parse(String[] args, Map<String, String> defaults) {
        Map<String, String> v = new HashMap<>(defaults);
        for (String arg : args) {
            int eq = arg.indexOf('=');
            if (!arg.startsWith("--") || eq < 3) {
                throw new IllegalArgumentException("expected --key=value, got: " + arg);
            }
            String key = arg.substring(2, eq).trim();
            if (!defaults.containsKey(key)) {
                throw new IllegalArgumentException("unknown option --" + key + " (known: " + defaults.keySet() + ")");
            }
            v.put(key, arg.substring(eq + 1).trim());
        }
        return v;
    }

    /** Returns option {@code key} as a non-negative int. */
    static int intOf(Map<String, String> v, String key) {
        try {
            int n = Integer.parseInt(v.get(key));
            if (n < 0) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("--" + key + " must be a non-negative integer: " + v.get(key));
        }
    }

    /**
     * Sets the defaults the engine reads at start, where no system property says otherwise: PyTorch's
     * intra- and inter-op thread counts (many OpenMP threads spinning on a small shared machine make
     * an epoch ten times slower), a quiet SLF4J simple logger (warnings only), offline mode (the
     * engine's native library comes from the pytorch-native-cpu jar on the class path, never the
     * network) and, where neither the {@code DJL_CACHE_DIR} property nor the variable is set, a cache
     * directory {@code djl-cache} beside the classes (the module's {@code target/}), where DJL extracts
     * the native library on first use.
     */
    static void engineDefaults(int torchThreads) {
        System.setProperty("ai.djl.offline", System.getProperty("ai.djl.offline", "true"));
        if (System.getProperty("DJL_CACHE_DIR") == null && System.getenv("DJL_CACHE_DIR") == null) {
            try {
                Path classes = Paths.get(Args.class.getProtectionDomain().getCodeSource().getLocation().toURI());
                Path parent = classes.toAbsolutePath().getParent();
                if (parent != null) {
                    System.setProperty("DJL_CACHE_DIR", parent.resolve("djl-cache").toString());
                }
            } catch (URISyntaxException | RuntimeException e) {
                System.err.println("djl-app: no default DJL_CACHE_DIR (" + e + "); DJL uses its own");
            }
        }
        if (torchThreads > 0) {
            System.setProperty("ai.djl.pytorch.num_threads",
                    System.getProperty("ai.djl.pytorch.num_threads", String.valueOf(torchThreads)));
            System.setProperty("ai.djl.pytorch.num_interop_threads",
                    System.getProperty("ai.djl.pytorch.num_interop_threads", String.valueOf(torchThreads)));
        }
        System.setProperty("org.slf4j.simpleLogger.defaultLogLevel",
                System.getProperty("org.slf4j.simpleLogger.defaultLogLevel", "warn"));
    }

    /** Returns the device named {@code cpu}, {@code gpu} (GPU 0) or {@code gpu:N}. */
    static Device device(String name) {
        String s = name.toLowerCase(Locale.ROOT);
        if (s.equals("cpu")) {
            return Device.cpu();
        }
        if (s.equals("gpu") || s.equals("cuda")) {
            return Device.gpu(0);
        }
        if (s.startsWith("gpu:") || s.startsWith("cuda:")) {
            return Device.gpu(Integer.parseInt(s.substring(s.indexOf(':') + 1)));
        }
        throw new IllegalArgumentException("device must be cpu, gpu or gpu:N: " + name);
    }
}
