package dev.streamhouse.sqlrunner.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.MalformedInputException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;

/**
 * The documentation holds together and stays inside the repository: every relative link and anchor
 * of README.md and docs/ resolves, external links go only to public upstream documentation, every
 * page is reachable from the manual's index, no file of the repository refers to a file outside it,
 * and every reference to a section of docs/format.md names a section that exists.
 */
class DocsLinksTest {
    /** Hosts of public upstream documentation a page may link to. */
    private static final Set<String> UPSTREAM_HOSTS = Set.of(
            "paimon.apache.org", "flink.apache.org", "nightlies.apache.org", "kafka.apache.org",
            "hadoop.apache.org", "parquet.apache.org", "avro.apache.org", "debezium.io", "mariadb.com",
            "dev.mysql.com", "docs.aws.amazon.com", "github.com", "repo.maven.apache.org", "archive.apache.org",
            "cwiki.apache.org", "rocksdb.org", "www.apache.org");

    /**
     * Names of the design notes that were kept outside the repository before the manual existed
     * (a reader of the repository has no such files), and the section notation that pointed into them.
     */
    private static final Pattern OUTSIDE_REFERENCE = Pattern.compile(
            "\\.\\./shared\\b|\\b(?:DESIGN|FORMAT|FLINK-RUNTIME|PAIMON-FEATURES|UPSTREAM-NEWER|STYLE|DEVELOPERS)\\.md\\b"
                    + "|\\b(?:FORMAT|FLINK-RUNTIME|DESIGN) §");
    private static final Pattern FORMAT_SECTION_REFERENCE = Pattern.compile("format\\.md §(\\d+(?:\\.\\d+)*)");
    private static final Pattern FORMAT_SECTION_HEADING = Pattern.compile("^(\\d+(?:\\.\\d+)*)\\.?\\s");

    private static final Set<String> SCANNED_EXTENSIONS = Set.of(
            "java", "md", "xml", "sql", "sh", "yaml", "yml", "properties", "template", "txt", "json");
    private static final Set<String> SKIPPED_DIRECTORIES = Set.of(
            ".git", "target", "warehouse", "node_modules", ".idea", "savepoints");

    @Test
    void everyRelativeLinkAndAnchorResolves() {
        Map<Path, MarkdownPage> pagesByFile = new HashMap<>();
        for (MarkdownPage page : Docs.pages()) {
            pagesByFile.put(page.file(), page);
        }
        List<String> broken = new ArrayList<>();
        int checked = 0;
        for (MarkdownPage page : pagesByFile.values()) {
            for (MarkdownPage.Link link : page.links()) {
                String target = link.target();
                if (target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue;   // a URL: see the next test
                }
                checked++;
                String where = Docs.name(page) + ":" + link.line() + ": " + target;
                int hash = target.indexOf('#');
                String pathPart = hash < 0 ? target : target.substring(0, hash);
                String anchor = hash < 0 ? null : target.substring(hash + 1);
                Path resolved = pathPart.isEmpty() ? page.file()
                        : page.file().getParent().resolve(pathPart).normalize();
                if (!resolved.startsWith(Docs.ROOT)) {
                    broken.add(where + " (leaves the repository)");
                    continue;
                }
                if (!Files.exists(resolved)) {
                    broken.add(where + " (no such file)");
                    continue;
                }
                if (anchor != null) {
                    MarkdownPage targetPage = pagesByFile.get(resolved);
                    if (targetPage == null) {
                        broken.add(where + " (an anchor into a file that is not a docs page)");
                    } else if (!targetPage.anchors().contains(anchor)) {
                        broken.add(where + " (no heading with anchor '" + anchor + "' in "
                                + Docs.name(targetPage) + ")");
                    }
                }
            }
        }
        assertThat(checked).as("relative links found in README.md and docs/").isGreaterThan(50);
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void externalLinksGoOnlyToPublicUpstreamDocumentation() {
        List<String> elsewhere = new ArrayList<>();
        for (MarkdownPage page : Docs.pages()) {
            for (MarkdownPage.Link link : page.links()) {
                String target = link.target();
                if (!target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*")) {
                    continue;
                }
                String host = target.startsWith("http") ? URI.create(target).getHost() : null;
                if (host == null || !UPSTREAM_HOSTS.contains(host)) {
                    elsewhere.add(Docs.name(page) + ":" + link.line() + ": " + target);
                }
            }
        }
        assertThat(elsewhere).as("links to places that are not public upstream documentation (allowed hosts: "
                + UPSTREAM_HOSTS + ")").isEmpty();
    }

    @Test
    void everyPageIsLinkedFromTheIndexAndTheIndexFromTheReadme() {
        MarkdownPage index = Docs.read(Docs.INDEX);
        Set<Path> linked = new LinkedHashSet<>();
        for (MarkdownPage.Link link : index.links()) {
            String path = link.target().replaceAll("#.*$", "");
            if (!path.isEmpty() && !path.contains(":")) {
                linked.add(Docs.DOCS.resolve(path).normalize());
            }
        }
        List<Path> pages = Docs.docsFiles().stream().filter(p -> !p.equals(Docs.INDEX)).toList();
        assertThat(pages).as("pages under docs/").hasSizeGreaterThan(10);
        assertThat(linked).as("pages linked from docs/README.md").containsAll(pages);

        MarkdownPage readme = Docs.read(Docs.README);
        assertThat(readme.links()).extracting(MarkdownPage.Link::target).as("links of README.md")
                .contains("docs/README.md");
    }

    @Test
    void nothingInTheRepositoryRefersToFilesOutsideIt() throws IOException {
        List<String> references = new ArrayList<>();
        int scanned = 0;
        Path self = Docs.ROOT.resolve("paimon-sql-runner/src/test/java/dev/streamhouse/sqlrunner/docs/DocsLinksTest.java");
        for (Path file : repositoryTextFiles()) {
            if (file.equals(self)) {
                continue;
            }
            scanned++;
            List<String> lines = readLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = OUTSIDE_REFERENCE.matcher(lines.get(i));
                if (m.find()) {
                    references.add(Docs.ROOT.relativize(file) + ":" + (i + 1) + ": " + lines.get(i).trim());
                }
            }
        }
        assertThat(scanned).as("text files scanned").isGreaterThan(500);
        assertThat(references).as("references to files outside the repository (the manual has "
                + "docs/architecture.md and docs/format.md instead)").isEmpty();
    }

    @Test
    void everyReferenceToASectionOfTheFormatPageNamesOneThatExists() throws IOException {
        Set<String> sections = new LinkedHashSet<>();
        for (MarkdownPage.Heading h : Docs.read(Docs.DOCS.resolve("format.md")).headings()) {
            Matcher m = FORMAT_SECTION_HEADING.matcher(h.plainText());
            if (m.find()) {
                sections.add(m.group(1));
            }
        }
        assertThat(sections).as("numbered sections of docs/format.md").contains("1", "4.3", "9.2");
        List<String> dangling = new ArrayList<>();
        int references = 0;
        for (Path file : repositoryTextFiles()) {
            List<String> lines = readLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = FORMAT_SECTION_REFERENCE.matcher(lines.get(i));
                while (m.find()) {
                    references++;
                    if (!sections.contains(m.group(1))) {
                        dangling.add(Docs.ROOT.relativize(file) + ":" + (i + 1) + ": §" + m.group(1));
                    }
                }
            }
        }
        assertThat(references).as("references to sections of docs/format.md in the code").isGreaterThan(50);
        assertThat(dangling).as("references to sections docs/format.md does not have").isEmpty();
    }

    /**
     * The repository's text files. Skipped directories are never entered: build output under
     * {@code target/} is written while the suite runs (a test's MariaDB server renames its files there),
     * so a walk that enters it and filters afterwards can meet a file that is gone.
     */
    private static List<Path> repositoryTextFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        Files.walkFileTree(Docs.ROOT, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                return !dir.equals(Docs.ROOT) && SKIPPED_DIRECTORIES.contains(dir.getFileName().toString())
                        ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                if (attrs.isRegularFile() && scanned(file)) {
                    files.add(file);
                }
                return FileVisitResult.CONTINUE;
            }
        });
        files.sort(null);
        return files;
    }

    private static boolean scanned(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? file.startsWith(Docs.ROOT.resolve("bin")) || name.equals("run")
                : SCANNED_EXTENSIONS.contains(name.substring(dot + 1));
    }

    private static List<String> readLines(Path file) throws IOException {
        try {
            return Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (MalformedInputException binary) {
            return List.of();
        }
    }
}
