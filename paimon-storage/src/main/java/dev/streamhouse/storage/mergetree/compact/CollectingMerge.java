package dev.streamhouse.storage.mergetree.compact;

import dev.streamhouse.storage.deletionvectors.BucketDeletionVectors;
import dev.streamhouse.storage.deletionvectors.DeletionMarks;
import dev.streamhouse.storage.mergetree.lookup.KeyLookup;
import dev.streamhouse.storage.mergetree.lookup.LookupResult;
import dev.streamhouse.storage.data.InternalRow;
import dev.streamhouse.storage.data.InternalRowUtils;
import dev.streamhouse.storage.data.RowKind;
import dev.streamhouse.storage.mergetree.KeyValue;
import dev.streamhouse.storage.mergetree.KeyValueLayout;
import dev.streamhouse.storage.mergetree.LookupVersions;
import dev.streamhouse.storage.mergetree.MergeFunction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The merge of a lookup compaction: it sees all versions of a key that the compaction reads, may look
 * up the key's newest version in the levels above ({@link #lookingUpIn}), and records the changelog of
 * the key next to its merged version. The rewriter {@link #drainChangelog drains} the changelog after
 * each merged version it reads (and once at the end: keys whose merge leaves nothing may still have a
 * changelog). Changelog records are copies, independent of the readers' reused rows.
 */
abstract class CollectingMerge implements MergeFunction {
    private final KeyValueLayout layout;
    private boolean produceChangelog;
    protected final List<KeyValue> versions = new ArrayList<>();
    private final List<KeyValue> changelog = new ArrayList<>();
    private KeyLookup lookup = KeyLookup.NONE;
    private BucketDeletionVectors deletionVectors;
    private DeletionMarks.Builder marks;

    CollectingMerge(KeyValueLayout layout) {
        this.layout = layout;
    }

    /** Whether keys with a level-0 version record their changelog from now on (off at first). */
    void changelogOn(boolean produceChangelog) {
        this.produceChangelog = produceChangelog;
    }

    /** Looks up keys in {@code lookup} from now on ({@link KeyLookup#NONE}: nothing above the output). */
    void lookingUpIn(KeyLookup lookup) {
        this.lookup = lookup;
    }

    /**
     * With deletion vectors: from now on a version found by lookup counts only if {@code current} does
     * not delete it (a key whose newest version is deleted was removed: its retraction was dropped), and
     * a version found is marked deleted in {@code marks}, since the merged version replaces it.
     */
    void markingDeletions(BucketDeletionVectors current, DeletionMarks.Builder marks) {
        this.deletionVectors = current;
        this.marks = marks;
    }

    @Override
    public final void reset() {
        versions.clear();
    }

    @Override
    public final void add(KeyValue kv) {
        versions.add(kv);
    }

    /** Whether a version of this key comes from level 0 (or from no file): only then is there a change. */
    protected final boolean containsLevelZero() {
        for (KeyValue kv : versions) {
            if (kv.level() <= 0) {
                return true;
            }
        }
        return false;
    }

    /** The version on the smallest level above 0 among the versions read, or null. */
    protected final KeyValue newestAboveLevelZero() {
        return LookupVersions.newestAboveLevelZero(versions);
    }

    /**
     * The key's newest live version in the levels above the compaction, or null; with deletion vectors
     * it is marked deleted.
     */
    protected final KeyValue lookUp(InternalRow key) {
        try {
            if (marks == null) {
                return lookup.lookup(key);
            }
            LookupResult found = lookup.locate(key);
            if (found == null) {
                return null;
            }
            if (found.file() == null) {
                throw new IllegalStateException("Cannot mark the older version of a key deleted: the lookup does not"
                        + " tell its file and row position");
            }
            if (deletionVectors.isDeleted(found.fileName(), found.rowPosition())) {
                return null;
            }
            marks.mark(found.fileName(), found.rowPosition());
            return found.keyValue();
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot look up a key in the levels above a compaction: " + e.getMessage(), e);
        }
    }

    protected final boolean producesChangelog() {
        return produceChangelog;
    }

    /** Records a changelog row of {@code kind} with the key, sequence number and value of {@code version}. */
    protected final void emit(RowKind kind, KeyValue version) {
        InternalRow key = InternalRowUtils.copyToGeneric(version.key(), layout.keyType());
        InternalRow value = InternalRowUtils.copyToGeneric(version.value(), layout.valueType());
        changelog.add(new KeyValue().replace(key, version.sequenceNumber(), kind, value));
    }

    /** The changelog recorded since the last call, in key order; the list is the caller's. */
    final List<KeyValue> drainChangelog() {
        if (changelog.isEmpty()) {
            return List.of();
        }
        List<KeyValue> out = new ArrayList<>(changelog);
        changelog.clear();
        return out;
    }
}
