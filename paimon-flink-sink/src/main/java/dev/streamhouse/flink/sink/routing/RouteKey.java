package dev.streamhouse.flink.sink.routing;

/** Two 32-bit hashes packed into one {@code long} route key: {@code high << 32 | low}. */
final class RouteKey {
    private RouteKey() {}

    static long pack(int high, int low) {
        return ((long) high << 32) | (low & 0xFFFFFFFFL);
    }

    static int high(long key) {
        return (int) (key >>> 32);
    }

    static int low(long key) {
        return (int) key;
    }
}
