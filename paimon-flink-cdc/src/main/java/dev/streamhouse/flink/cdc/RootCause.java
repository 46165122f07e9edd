package dev.streamhouse.flink.cdc;

/** The innermost cause of a failure, as the tools print it: what went wrong, not where it surfaced. */
public final class RootCause {
    private RootCause() {}

    /** {@code <simple class name>: <message>} of the last cause in {@code e}'s chain. */
    public static String message(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }
}
