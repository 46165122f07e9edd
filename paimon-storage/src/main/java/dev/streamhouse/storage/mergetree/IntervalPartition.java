package dev.streamhouse.storage.mergetree;

import dev.streamhouse.storage.manifest.DataFileMeta;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;

/**
 * Splits the files of one bucket into sections whose key ranges do not overlap each other, and each
 * section into as few sorted runs as possible. Sections can then be merged independently and in key
 * order; within a section, every key is looked up in at most one file per run.
 */
public final class IntervalPartition {
    private final List<DataFileMeta> files;
    private final KeyComparator keyComparator;

    public IntervalPartition(List<DataFileMeta> files, KeyComparator keyComparator) {
        this.files = new ArrayList<>(files);
        this.keyComparator = keyComparator;
        this.files.sort((a, b) -> {
            int c = keyComparator.compare(a.minKey(), b.minKey());
            return c != 0 ? c : keyComparator.compare(a.maxKey(), b.maxKey());
        });
    }

    /** Sections in key order; each a list of sorted runs. */
    public List<List<SortedRun>> partition() {
        List<List<SortedRun>> sections = new ArrayList<>();
        List<DataFileMeta> section = new ArrayList<>();
        DataFileMeta sectionMax = null;
        for (DataFileMeta f : files) {
            if (!section.isEmpty() && keyComparator.compare(f.minKey(), sectionMax.maxKey()) > 0) {
                sections.add(toRuns(section));
                section = new ArrayList<>();
                sectionMax = null;
            }
            section.add(f);
            if (sectionMax == null || keyComparator.compare(f.maxKey(), sectionMax.maxKey()) > 0) {
                sectionMax = f;
            }
        }
        if (!section.isEmpty()) {
            sections.add(toRuns(section));
        }
        return sections;
    }

    /** Greedy: put each file (by min key) behind the run that ends earliest, if it ends before it. */
    private List<SortedRun> toRuns(List<DataFileMeta> section) {
        PriorityQueue<List<DataFileMeta>> runs = new PriorityQueue<>(
                Comparator.comparing((List<DataFileMeta> r) -> r.get(r.size() - 1).maxKey(), keyComparator));
        for (DataFileMeta f : section) {
            List<DataFileMeta> earliest = runs.peek();
            if (earliest != null && keyComparator.compare(earliest.get(earliest.size() - 1).maxKey(), f.minKey()) < 0) {
                runs.poll();
                earliest.add(f);
                runs.add(earliest);
            } else {
                List<DataFileMeta> run = new ArrayList<>();
                run.add(f);
                runs.add(run);
            }
        }
        List<SortedRun> out = new ArrayList<>();
        for (List<DataFileMeta> r : runs) {
            out.add(new SortedRun(r));
        }
        return out;
    }
}
