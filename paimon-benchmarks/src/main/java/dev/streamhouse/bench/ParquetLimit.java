package dev.streamhouse.bench;

import org.apache.hadoop.conf.Configuration;
import org.apache.parquet.column.ParquetProperties;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.ParquetWriter;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.api.WriteSupport;
import org.apache.parquet.hadoop.metadata.CompressionCodecName;
import org.apache.parquet.io.LocalInputFile;
import org.apache.parquet.io.LocalOutputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordConsumer;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Workload {@code parquet-limit}: the rows of the write workloads written to and read from Parquet
 * files with plain parquet-mr, without Flink, sorting, merging or commits: what this machine can do
 * at best with the same format, compression (zstd) and parallelism (2 threads, one file each).
 */
final class ParquetLimit {
    private static final MessageType SCHEMA =
            MessageTypeParser.parseMessageType(
                    "message row { required int64 id; required int32 i; required int64 b;"
                            + " required double d; required binary s (STRING);"
                            + " required int64 ts (TIMESTAMP(MILLIS,false)); }");
    private static final int THREADS = SqlSession.PARALLELISM;
    private static final char[] ALPHABET =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".toCharArray();

    private final BenchParams params;
    private final Path dir;

    ParquetLimit(BenchParams params, Path dir) {
        this.params = params;
        this.dir = dir;
    }

    void run() throws Exception {
        Report report = new Report(Workload.PARQUET_LIMIT.id, "parquet");
        Files.createDirectories(dir);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            List<Path> files = new ArrayList<>();
            List<Callable<Long>> writers = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                Path file = dir.resolve("part-" + t + ".parquet");
                Files.deleteIfExists(file);
                files.add(file);
                long rows = params.rows / THREADS + (t < params.rows % THREADS ? 1 : 0);
                long seed = 42 + t;
                writers.add(() -> write(file, rows, seed));
            }
            long start = System.nanoTime();
            long written = sum(pool.invokeAll(writers));
            double writeSeconds = (System.nanoTime() - start) / 1e9;
            long bytes = 0;
            for (Path f : files) {
                bytes += Files.size(f);
            }
            report.info("wrote %d rows (%d bytes) in %.2f s", written, bytes, writeSeconds);
            report.result("write-rows-per-s", written / writeSeconds, "rows/s");

            List<Callable<Long>> readers = new ArrayList<>();
            for (Path f : files) {
                readers.add(() -> read(f));
            }
            start = System.nanoTime();
            long read = sum(pool.invokeAll(readers));
            double readSeconds = (System.nanoTime() - start) / 1e9;
            report.info("read %d rows in %.2f s", read, readSeconds);
            report.result("scan-rows-per-s", read / readSeconds, "rows/s");
        } finally {
            pool.shutdownNow();
        }
    }

    private long write(Path file, long rows, long seed) throws Exception {
        SplittableRandom random = new SplittableRandom(seed);
        long[] row = new long[5];
        byte[] s = new byte[20];
        long now = System.currentTimeMillis();
        try (ParquetWriter<long[]> writer =
                new WriterBuilder(new LocalOutputFile(file), s)
                        .withCompressionCodec(CompressionCodecName.ZSTD)
                        .withWriterVersion(ParquetProperties.WriterVersion.PARQUET_1_0)
                        .build()) {
            for (long n = 0; n < rows; n++) {
                row[0] = random.nextLong(1, params.keys + 1);
                row[1] = random.nextInt();
                row[2] = random.nextLong();
                row[3] = Double.doubleToRawLongBits(random.nextDouble());
                row[4] = now - random.nextLong(3_600_000);
                for (int c = 0; c < s.length; c++) {
                    s[c] = (byte) ALPHABET[random.nextInt(ALPHABET.length)];
                }
                writer.write(row);
            }
        }
        return rows;
    }

    private long read(Path file) throws Exception {
        Sums sums = new Sums();
        long rows = 0;
        try (ParquetReader<Sums> reader = new ReaderBuilder(new LocalInputFile(file), sums).build()) {
            while (reader.read() != null) {
                rows++;
            }
        }
        if (sums.count != rows) {
            throw new IllegalStateException("Cannot trust the scan: " + sums.count + " ids for " + rows + " rows");
        }
        return rows;
    }

    private static long sum(List<Future<Long>> futures) throws Exception {
        long total = 0;
        for (Future<Long> f : futures) {
            total += f.get();
        }
        return total;
    }

    /** Writes a reused {@code long[]} row (the string comes from a reused byte array). */
    private static final class WriterBuilder extends ParquetWriter.Builder<long[], WriterBuilder> {
        private final byte[] string;

        WriterBuilder(LocalOutputFile file, byte[] string) {
            super(file);
            this.string = string;
        }

        @Override
        protected WriterBuilder self() {
            return this;
        }

        @Override
        protected WriteSupport<long[]> getWriteSupport(Configuration conf) {
            return new WriteSupport<>() {
                private RecordConsumer out;

                @Override
                public WriteContext init(Configuration configuration) {
                    return new WriteContext(SCHEMA, new HashMap<>());
                }

                @Override
                public void prepareForWrite(RecordConsumer recordConsumer) {
                    out = recordConsumer;
                }

                @Override
                public void write(long[] row) {
                    out.startMessage();
                    longField(0, "id", row[0]);
                    out.startField("i", 1);
                    out.addInteger((int) row[1]);
                    out.endField("i", 1);
                    longField(2, "b", row[2]);
                    out.startField("d", 3);
                    out.addDouble(Double.longBitsToDouble(row[3]));
                    out.endField("d", 3);
                    out.startField("s", 4);
                    out.addBinary(Binary.fromReusedByteArray(string));
                    out.endField("s", 4);
                    longField(5, "ts", row[4]);
                    out.endMessage();
                }

                private void longField(int index, String name, long value) {
                    out.startField(name, index);
                    out.addLong(value);
                    out.endField(name, index);
                }
            };
        }
    }

    /** What a scan computes: count and sums, without materializing rows. */
    private static final class Sums {
        long count;
        long sumB;
        double sumD;
        long stringBytes;
    }

    private static final class ReaderBuilder extends ParquetReader.Builder<Sums> {
        private final Sums sums;

        ReaderBuilder(LocalInputFile file, Sums sums) {
            super(file);
            this.sums = sums;
        }

        @Override
        protected ReadSupport<Sums> getReadSupport() {
            return new ReadSupport<>() {
                @Override
                public ReadContext init(InitContext context) {
                    return new ReadContext(context.getFileSchema());
                }

                @Override
                public RecordMaterializer<Sums> prepareForRead(
                        Configuration configuration,
                        Map<String, String> keyValueMetaData,
                        MessageType fileSchema,
                        ReadContext readContext) {
                    return new SumsMaterializer(sums);
                }
            };
        }
    }

    private static final class SumsMaterializer extends RecordMaterializer<Sums> {
        private final Sums sums;
        private final GroupConverter root;

        SumsMaterializer(Sums sums) {
            this.sums = sums;
            Converter[] fields = {
                new PrimitiveConverter() {
                    @Override
                    public void addLong(long value) {
                        sums.count++;
                    }
                },
                new PrimitiveConverter() {
                    @Override
                    public void addInt(int value) {}
                },
                new PrimitiveConverter() {
                    @Override
                    public void addLong(long value) {
                        sums.sumB += value;
                    }
                },
                new PrimitiveConverter() {
                    @Override
                    public void addDouble(double value) {
                        sums.sumD += value;
                    }
                },
                new PrimitiveConverter() {
                    @Override
                    public void addBinary(Binary value) {
                        sums.stringBytes += value.length();
                    }
                },
                new PrimitiveConverter() {
                    @Override
                    public void addLong(long value) {}
                }
            };
            root =
                    new GroupConverter() {
                        @Override
                        public Converter getConverter(int fieldIndex) {
                            return fields[fieldIndex];
                        }

                        @Override
                        public void start() {}

                        @Override
                        public void end() {}
                    };
        }

        @Override
        public Sums getCurrentRecord() {
            return sums;
        }

        @Override
        public GroupConverter getRootConverter() {
            return root;
        }
    }
}
