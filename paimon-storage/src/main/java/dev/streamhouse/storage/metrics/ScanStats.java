package dev.streamhouse.storage.metrics;

/**
 * What planning one snapshot's files took: the manifests read, the data files the plan's filters
 * skipped (partition, bucket, level, value statistics) and the files it selected.
 *
 * @param durationMillis wall-clock milliseconds of the planning
 * @param manifestsScanned manifest files read (manifests whose partition statistics or bucket range
 *     excluded them are not read and not counted)
 * @param skippedFiles entries of the read manifests that the filters dropped
 * @param resultedFiles data (or changelog) files the plan selected
 */
public record ScanStats(long durationMillis, long manifestsScanned, long skippedFiles, long resultedFiles) {

    /** The sum of two plannings, e.g. of the scans one table read made for one request. */
    public ScanStats plus(ScanStats other) {
        return new ScanStats(durationMillis + other.durationMillis, manifestsScanned + other.manifestsScanned,
                skippedFiles + other.skippedFiles, resultedFiles + other.resultedFiles);
    }
}
