package dev.streamhouse.storage.lookup;

/** A heap lookup store would hold more than its budget; the cache moves to local disk. */
final class HeapBudgetExceededException extends RuntimeException {
    HeapBudgetExceededException(long budgetBytes) {
        super("the lookup cache outgrew its heap budget of " + budgetBytes + " bytes", null, false, false);
    }
}
