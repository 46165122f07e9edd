package dev.streamhouse.storage.mergetree.lookup;

import dev.streamhouse.storage.options.LookupOptions;
import dev.streamhouse.storage.options.Options;
import dev.streamhouse.storage.options.WriteTuningOptions;

/**
 * How local lookup files are laid out.
 *
 * @param fileType the layout ({@code lookup.local-file-type})
 * @param blockSizeBytes the size a block of a {@link LookupFileType#SORT} file grows to before the next one
 *     starts ({@code cache-page-size}); a lookup of a present key reads one block, so smaller blocks make
 *     hits cheaper and the in-heap index (one key per block) larger
 * @param bloomFilterEnabled whether each file keeps a Bloom filter of its keys in heap
 *     ({@code lookup.cache.bloom.filter.enabled}), so most lookups of absent keys read nothing
 * @param bloomFilterFpp the false-positive rate of those filters ({@code lookup.cache.bloom.filter.fpp})
 * @param hashLoadFactor the most filled share of the slots of a {@link LookupFileType#HASH} file
 *     ({@code lookup.hash-load-factor})
 */
public record LookupFileSettings(LookupFileType fileType, int blockSizeBytes, boolean bloomFilterEnabled,
        double bloomFilterFpp, double hashLoadFactor) {

    public LookupFileSettings {
        if (fileType == null) {
            throw new IllegalArgumentException("Cannot lay out lookup files: no file type given");
        }
        if (blockSizeBytes <= 0) {
            throw new IllegalArgumentException("Cannot lay out lookup files in blocks of " + blockSizeBytes
                    + " bytes: the block size must be positive");
        }
        if (bloomFilterEnabled && !(bloomFilterFpp > 0 && bloomFilterFpp < 1)) {
            throw new IllegalArgumentException("Cannot build bloom filters with false-positive rate " + bloomFilterFpp
                    + ": 'lookup.cache.bloom.filter.fpp' must be between 0 and 1 (exclusive)");
        }
        if (!(hashLoadFactor > 0 && hashLoadFactor < 1)) {
            throw new IllegalArgumentException("Cannot build hash lookup files with load factor " + hashLoadFactor
                    + ": 'lookup.hash-load-factor' must be between 0 and 1 (exclusive)");
        }
    }

    /** The settings of the given table options (defaults for those not set). */
    public static LookupFileSettings from(Options options) {
        long pageSize = options.get(WriteTuningOptions.CACHE_PAGE_SIZE).bytes();
        return new LookupFileSettings(
                LookupFileType.of(options.get(LookupOptions.LOOKUP_LOCAL_FILE_TYPE)),
                (int) Math.min(Integer.MAX_VALUE / 2, pageSize),
                options.get(LookupOptions.LOOKUP_CACHE_BLOOM_FILTER_ENABLED),
                options.get(LookupOptions.LOOKUP_CACHE_BLOOM_FILTER_FPP),
                options.get(LookupOptions.LOOKUP_HASH_LOAD_FACTOR));
    }

    /** The defaults: sorted files in 64 KiB blocks with 5% bloom filters. */
    public static LookupFileSettings defaults() {
        return from(new Options());
    }

    public LookupFileSettings withFileType(LookupFileType type) {
        return new LookupFileSettings(type, blockSizeBytes, bloomFilterEnabled, bloomFilterFpp, hashLoadFactor);
    }

    public LookupFileSettings withBlockSizeBytes(int bytes) {
        return new LookupFileSettings(fileType, bytes, bloomFilterEnabled, bloomFilterFpp, hashLoadFactor);
    }

    public LookupFileSettings withoutBloomFilter() {
        return new LookupFileSettings(fileType, blockSizeBytes, false, bloomFilterFpp, hashLoadFactor);
    }

    public LookupFileSettings withBloomFilterFpp(double fpp) {
        return new LookupFileSettings(fileType, blockSizeBytes, true, fpp, hashLoadFactor);
    }
}
