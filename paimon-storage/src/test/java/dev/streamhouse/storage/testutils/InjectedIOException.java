package dev.streamhouse.storage.testutils;

import dev.streamhouse.storage.fs.Path;

import java.io.IOException;

/**
 * The failure {@link FailingFileIO} throws. {@link #operationPerformed()} tells whether the operation
 * took effect before the exception (an "outcome unknown" failure, like a commit whose success was
 * never acknowledged) or not at all.
 */
public final class InjectedIOException extends IOException {
    private static final long serialVersionUID = 1L;

    private final int callNumber;
    private final FileOperation operation;
    private final boolean operationPerformed;

    InjectedIOException(int callNumber, FileOperation operation, Path path, boolean operationPerformed) {
        super("Injected failure at I/O call #" + callNumber + ": " + operation + " " + path
                + (operationPerformed ? " (the operation WAS performed)" : " (the operation was not performed)"));
        this.callNumber = callNumber;
        this.operation = operation;
        this.operationPerformed = operationPerformed;
    }

    /** The failing call's number, counted from the FailingFileIO's creation or last count reset. */
    public int callNumber() {
        return callNumber;
    }

    public FileOperation operation() {
        return operation;
    }

    public boolean operationPerformed() {
        return operationPerformed;
    }

    /** Whether {@code t} or one of its causes (or suppressed exceptions) is an injected failure. */
    public static boolean isInjected(Throwable t) {
        int depth = 0;
        for (Throwable c = t; c != null && depth < 100; c = c.getCause(), depth++) {
            if (c instanceof InjectedIOException) {
                return true;
            }
            for (Throwable s : c.getSuppressed()) {
                if (s instanceof InjectedIOException) {
                    return true;
                }
            }
        }
        return false;
    }
}
