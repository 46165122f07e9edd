package dev.streamhouse.sqlrunner.docs;

import static org.assertj.core.api.Assertions.assertThat;

import dev.streamhouse.sqlrunner.ProcessRun;
import dev.streamhouse.sqlrunner.SqlClientOnMiniCluster;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;
import org.junit.jupiter.api.io.TempDir;

/**
 * The examples of the manual run as written, so they cannot rot:
 * <ul>
 *   <li>the {@code sql} blocks marked {@code <!-- runnable -->} of each page run in order through
 *       {@code bin/flink-sql -f}, each page on a fresh warehouse with the {@code paimon} catalog
 *       current and the session's settings reset; every statement must succeed, and each block
 *       marked {@code <!-- result -->} must appear in the page's output as consecutive lines, in
 *       order;</li>
 *   <li>the DataStream example that docs/java-api.md quotes compiles and runs with
 *       {@code bin/datastream-example}.</li>
 * </ul>
 * All pages run in one {@code bin/flink-sql} session, a page after the other, and their jobs go to one
 * cluster started here ({@code -D execution.target=remote}): a session and a MiniCluster per page and per
 * job would cost several minutes of start-up. Between pages the session resets its settings
 * ({@code RESET}) and drops and recreates the {@code paimon} catalog on the next page's warehouse.
 * {@code -Ddocs.pages=sql.md,lifecycle.md} runs only those pages. Examples that name a Hive metastore
 * at {@value #DOCS_METASTORE} run against a real one started here, whose address replaces that one.
 */
class DocsExamplesITCase {
    private static final Duration TIMEOUT = Duration.ofMinutes(20);
    /** Starts each page's part of the script; its echo separates the pages' output. */
    private static final String PAGE_MARKER = "-- docs page: ";

    /** The Hive metastore address the docs' examples use. */
    private static final String DOCS_METASTORE = "thrift://localhost:9083";

    private static SqlClientOnMiniCluster cluster;
    private static dev.streamhouse.testing.hive.HiveMetastoreExtension metastore;
    /** The output of each page that ran, by page, in order; filled by the one run of the script. */
    private static Map<MarkdownPage, String> outputs;
    private static ProcessRun run;

    @TempDir
    static Path workDir;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = SqlClientOnMiniCluster.start(4);
    }

    @AfterAll
    static void stopCluster() throws Exception {
        if (cluster != null) {
            cluster.close();
        }
        if (metastore != null) {
            metastore.stop();
        }
    }

    @TestFactory
    Stream<DynamicTest> runnableSqlOfEveryPageRunsAndPrintsItsResults() throws Exception {
        List<MarkdownPage> pages = Docs.pages().stream()
                .filter(p -> !p.blocksMarked(MarkdownPage.RUNNABLE).isEmpty())
                .filter(DocsExamplesITCase::selected)
                .toList();
        if (System.getProperty("docs.pages") == null) {
            assertThat(pages).as("pages with runnable SQL").hasSizeGreaterThan(10);
        }
        runAllPages(pages);
        Stream<DynamicTest> perPage = pages.stream()
                .map(page -> DynamicTest.dynamicTest(Docs.name(page), () -> checkPage(page)));
        return Stream.concat(perPage, Stream.of(DynamicTest.dynamicTest("the script as a whole", () ->
                assertThat(run.exitCode).as("exit status of bin/flink-sql -f; output:%n%s", run.output).isZero())));
    }

    @Test
    void resultBlocksFollowRunnableSqlAndRunnableBlocksAreSql() {
        List<String> problems = new ArrayList<>();
        for (MarkdownPage page : Docs.pages()) {
            boolean runnableSeen = false;
            for (MarkdownPage.CodeBlock block : page.codeBlocks()) {
                String where = Docs.name(page) + ":" + block.line();
                if (MarkdownPage.RUNNABLE.equals(block.marker())) {
                    runnableSeen = true;
                    if (!block.info().equals("sql")) {
                        problems.add(where + ": a runnable block must be ```sql, not ```" + block.info());
                    }
                    if (block.body().contains(PAGE_MARKER)) {
                        problems.add(where + ": a runnable block may not contain '" + PAGE_MARKER + "'");
                    }
                } else if (MarkdownPage.RESULT.equals(block.marker()) && !runnableSeen) {
                    problems.add(where + ": a result block before any runnable block");
                }
            }
        }
        assertThat(problems).isEmpty();
    }

    /** {@code bin/datastream-example}, as a user runs it: compiles the example, runs its three jobs. */
    @Test
    void dataStreamExampleCompilesAndRuns() throws Exception {
        Path dir = Files.createDirectories(workDir.resolve("datastream"));
        List<String> command = List.of("bash", Docs.ROOT.resolve("bin/datastream-example").toString(),
                dir.resolve("warehouse").toString());
        ProcessRun example = ProcessRun.run(command, dir, dir.resolve("output.txt"), TIMEOUT,
                (Map<String, String> env) -> {
                    env.put("FLINK_SQL_SKIP_BUILD", "1");
                    env.put("JAVA_HOME", System.getProperty("java.home"));
                    env.put("PATH", Path.of(System.getProperty("java.home"), "bin") + ":" + env.get("PATH"));
                });

        assertThat(example.exitCode).as(example.output).isZero();
        assertThat(example.output).contains(
                "All users of examples.users:\n  1 | alice m. | fr\n  3 | carol | fr\n",
                "Users in fr, names only:\n  alice m.\n  carol\n",
                "Following the changes of examples.users:\n  +I 1 | alice m. | fr\n  +I 3 | carol | fr\n"
                        + "  +I 4 | dave | de\n");
    }

    /** Runs every page's runnable blocks in one session and splits the output by page. */
    private static void runAllPages(List<MarkdownPage> pages) throws Exception {
        StringBuilder script = new StringBuilder();
        for (MarkdownPage page : pages) {
            URI warehouse = Files.createDirectories(workDir.resolve("warehouses").resolve(pageId(page))).toUri();
            script.append(PAGE_MARKER).append(Docs.name(page)).append('\n')
                    .append("RESET;\n")
                    .append("USE CATALOG default_catalog;\n")
                    .append("DROP CATALOG IF EXISTS paimon;\n")
                    .append("CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = '").append(warehouse)
                    .append("');\n")
                    .append("USE CATALOG paimon;\n")
                    .append(page.blocksMarked(MarkdownPage.RUNNABLE).stream()
                            .map(MarkdownPage.CodeBlock::body).collect(Collectors.joining("\n")))
                    .append('\n');
        }
        String sql = script.toString();
        if (sql.contains(DOCS_METASTORE)) {
            metastore = new dev.streamhouse.testing.hive.HiveMetastoreExtension();
            metastore.start();
            sql = sql.replace(DOCS_METASTORE, metastore.uri());
        }
        Path scriptFile = workDir.resolve("docs-examples.sql");
        Files.writeString(scriptFile, sql, StandardCharsets.UTF_8);

        run = cluster.runScript(scriptFile, workDir, workDir.resolve("warehouses").resolve("init"), TIMEOUT);
        System.out.printf("runnable SQL of %d pages ran in %.1f s%n", pages.size(), run.elapsed.toMillis() / 1000.0);

        String output = run.output.replaceAll("\u001B\\[[0-9;]*m", "");
        outputs = new LinkedHashMap<>();
        for (int i = 0; i < pages.size(); i++) {
            String start = "Flink SQL> " + PAGE_MARKER + Docs.name(pages.get(i)) + "\n";
            int from = output.indexOf(start);
            if (from < 0) {
                break;   // not reached: an earlier page failed
            }
            int to = i + 1 < pages.size()
                    ? output.indexOf("Flink SQL> " + PAGE_MARKER + Docs.name(pages.get(i + 1)) + "\n", from)
                    : -1;
            outputs.put(pages.get(i), output.substring(from, to < 0 ? output.length() : to));
        }
    }

    private static void checkPage(MarkdownPage page) {
        String output = outputs.get(page);
        assertThat(output).as("the runnable blocks of %s did not run: an earlier page failed, or the session "
                + "ended; whole output:%n%s", Docs.name(page), run.output).isNotNull();
        assertThat(output).as("output of the runnable blocks of %s", Docs.name(page)).doesNotContain("[ERROR]");
        List<String> outputLines = output.lines().map(String::stripTrailing).toList();
        int from = 0;
        for (MarkdownPage.CodeBlock result : page.blocksMarked(MarkdownPage.RESULT)) {
            List<String> expected = result.body().lines().map(String::stripTrailing).toList();
            int at = indexOf(outputLines, expected, from);
            assertThat(at).as("the result block at %s:%d, in order, in the output:%n%s",
                    Docs.name(page), result.line(), output).isNotNegative();
            from = at + expected.size();
        }
    }

    private static int indexOf(List<String> lines, List<String> block, int from) {
        for (int i = from; i + block.size() <= lines.size(); i++) {
            if (lines.subList(i, i + block.size()).equals(block)) {
                return i;
            }
        }
        return -1;
    }

    private static String pageId(MarkdownPage page) {
        return Docs.name(page).replace(".md", "").replace('/', '-');
    }

    private static boolean selected(MarkdownPage page) {
        String only = System.getProperty("docs.pages");
        return only == null || List.of(only.split(",")).contains(page.file().getFileName().toString());
    }
}
