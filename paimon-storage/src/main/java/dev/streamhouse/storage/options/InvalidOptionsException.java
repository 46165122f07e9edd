package dev.streamhouse.storage.options;

import java.util.List;

/**
 * Options that cannot be accepted: an invalid value, a value not supported yet, or a combination that
 * does not work. Thrown before anything is written; the message lists every problem found, each
 * naming its option. Do not retry: the input must change.
 */
public final class InvalidOptionsException extends IllegalArgumentException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public InvalidOptionsException(List<String> problems) {
        super(String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** @param action what could not be done, e.g. "Cannot use table db.t with dynamic options" */
    public InvalidOptionsException(String action, List<String> problems) {
        super(action + ": " + String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    /** Each problem on its own, in the order found. */
    public List<String> problems() {
        return problems;
    }
}
