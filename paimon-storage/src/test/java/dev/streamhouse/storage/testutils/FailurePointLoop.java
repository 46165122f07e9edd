package dev.streamhouse.storage.testutils;

/** Runs a scenario once per failure point; see {@link FailingFileIO#failEachCallInTurn}. */
final class FailurePointLoop {
    /** A scenario still reaching this many calls is taken never to settle, and fails the test. */
    static final int MAX_FAILURE_POINTS = 10_000;

    private FailurePointLoop() {}

    static int run(FailureState state, FailingFileIO.Scenario scenario, FailingFileIO.FailureCheck afterFailure,
            FailureRule.Timing timing) throws Exception {
        for (int n = 1; n <= MAX_FAILURE_POINTS; n++) {
            state.armAtCall(n, timing);
            Throwable thrown = null;
            try {
                scenario.run();
            } catch (Exception | AssertionError e) {
                thrown = e;
            }
            boolean reachedArmedCall = !state.armed();
            state.disarm();
            if (thrown != null && !InjectedIOException.isInjected(thrown)) {
                throw new AssertionError("Scenario failed for a reason other than the failure injected at call "
                        + n + " (or the attempt ended before call " + n + ")", thrown);
            }
            if (!reachedArmedCall) {
                return n - 1;
            }
            afterFailure.check(n, thrown);
        }
        throw new AssertionError("Scenario still reached call " + MAX_FAILURE_POINTS + "; does it ever complete?");
    }
}
