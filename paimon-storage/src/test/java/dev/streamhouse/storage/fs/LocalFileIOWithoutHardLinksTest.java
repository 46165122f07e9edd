package dev.streamhouse.storage.fs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Create-if-absent on a file system without hard links (forced): the file-lock fallback must give
 * exactly one winner per name among independent file IOs and among processes.
 */
class LocalFileIOWithoutHardLinksTest {
    private static final int ROUNDS = 300;

    @TempDir
    java.nio.file.Path tmp;

    @Test
    void independentFileIosHaveExactlyOneWinnerPerName() throws Exception {
        List<FileIO> ios = List.of(LocalFileIO.withoutHardLinks(), LocalFileIO.withoutHardLinks());
        Path dir = new Path(tmp.toString());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            for (int round = 0; round < 50; round++) {
                Path target = new Path(dir, "snapshot/snapshot-" + round);
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Boolean>> results = new ArrayList<>();
                for (int racer = 0; racer < 4; racer++) {
                    FileIO io = ios.get(racer % 2);
                    byte[] content = ("racer-" + racer).getBytes(StandardCharsets.UTF_8);
                    results.add(pool.submit(() -> {
                        start.await();
                        return io.createIfAbsent(target, content);
                    }));
                }
                start.countDown();
                List<Integer> winners = new ArrayList<>();
                for (int racer = 0; racer < 4; racer++) {
                    if (results.get(racer).get(30, TimeUnit.SECONDS)) {
                        winners.add(racer);
                    }
                }
                assertThat(winners).as("round %d", round).hasSize(1);
                assertThat(ios.get(0).readUtf8(target)).isEqualTo("racer-" + winners.get(0));
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(namesIn(tmp.resolve("snapshot"))).as("no temp or lock file left").hasSize(50)
                .allMatch(n -> n.startsWith("snapshot-"));
    }

    @Test
    void twoProcessesHaveExactlyOneWinnerPerName() throws Exception {
        java.nio.file.Path go = tmp.resolve("go");
        java.nio.file.Path dir = tmp.resolve("warehouse");
        List<Process> processes = new ArrayList<>();
        List<CompletableFuture<List<String>>> outputs = new ArrayList<>();
        List<CountDownLatch> ready = new ArrayList<>();
        try {
            for (String id : List.of("p0", "p1")) {
                String other = id.equals("p0") ? "p1" : "p0";
                Process p = new ProcessBuilder(java.nio.file.Path.of(System.getProperty("java.home"), "bin", "java")
                        .toString(), "-cp", System.getProperty("java.class.path"), Racer.class.getName(),
                        dir.toString(), go.toString(), id, other).redirectErrorStream(true).start();
                processes.add(p);
                CountDownLatch isReady = new CountDownLatch(1);
                ready.add(isReady);
                outputs.add(CompletableFuture.supplyAsync(() -> lines(p, isReady)));
            }
            for (CountDownLatch r : ready) {
                assertThat(r.await(60, TimeUnit.SECONDS)).as("racer process ready").isTrue();
            }
            Files.createFile(go);
            Map<Integer, List<String>> winners = new HashMap<>();
            for (int i = 0; i < processes.size(); i++) {
                assertThat(processes.get(i).waitFor(120, TimeUnit.SECONDS)).as("racer %d ends", i).isTrue();
                List<String> out = outputs.get(i).get(10, TimeUnit.SECONDS);
                assertThat(processes.get(i).exitValue()).as("racer %d: %s", i, out).isZero();
                for (String line : out) {
                    if (line.startsWith("won ")) {
                        String[] parts = line.split(" ");
                        winners.computeIfAbsent(Integer.parseInt(parts[1]), k -> new ArrayList<>()).add(parts[2]);
                    }
                }
            }
            for (int round = 0; round < ROUNDS; round++) {
                List<String> won = winners.get(round);
                assertThat(won).as("winners of snapshot-%d", round).hasSize(1);
                assertThat(Files.readString(dir.resolve("snapshot-" + round))).isEqualTo(won.get(0));
            }
            assertThat(winners.values().stream().map(w -> w.get(0).substring(0, 2)).distinct())
                    .as("both processes won names (they raced)").hasSize(2);
            assertThat(namesIn(dir)).as("no temp or lock file left").hasSize(ROUNDS);
        } finally {
            processes.forEach(Process::destroyForcibly);
        }
    }

    private static List<String> lines(Process p, CountDownLatch ready) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = in.readLine(); line != null; line = in.readLine()) {
                lines.add(line);
                if (line.equals("ready")) {
                    ready.countDown();
                }
            }
        } catch (IOException e) {
            lines.add("cannot read the racer's output: " + e);
        }
        return lines;
    }

    private static List<String> namesIn(java.nio.file.Path dir) throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).toList();
        }
    }

    /**
     * One racing process: waits for the go file, then for each name {@code snapshot-0} to
     * {@code snapshot-<ROUNDS-1>} meets the other process at a barrier (a file per process and round)
     * and tries to create it with its own content; it prints each name it won.
     */
    public static final class Racer {
        public static void main(String[] args) throws Exception {
            java.nio.file.Path dir = java.nio.file.Path.of(args[0]);
            java.nio.file.Path go = java.nio.file.Path.of(args[1]);
            String id = args[2];
            String other = args[3];
            java.nio.file.Path barrier = go.resolveSibling("barrier");
            Files.createDirectories(barrier);
            FileIO io = LocalFileIO.withoutHardLinks();
            System.out.println("ready");
            System.out.flush();
            while (!Files.exists(go)) {
                Thread.onSpinWait();
            }
            List<String> won = new ArrayList<>();
            for (int round = 0; round < ROUNDS; round++) {
                Files.createFile(barrier.resolve(round + "-" + id));
                java.nio.file.Path theirs = barrier.resolve(round + "-" + other);
                while (!Files.exists(theirs)) {
                    Thread.onSpinWait();
                }
                if (io.createIfAbsent(new Path(dir.resolve("snapshot-" + round).toString()),
                        id.getBytes(StandardCharsets.UTF_8))) {
                    won.add("won " + round + " " + id);
                }
            }
            won.forEach(System.out::println);
            System.out.flush();
        }
    }
}
