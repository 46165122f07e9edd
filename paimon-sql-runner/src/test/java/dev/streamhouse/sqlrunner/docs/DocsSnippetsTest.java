package dev.streamhouse.sqlrunner.docs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

/**
 * Code quoted in the manual is code the build compiles and the tests run: a block marked
 * {@code <!-- from: path -->} consists of lines of that repository file, in the file's order
 * (compared without leading and trailing blanks; a line {@code ...} stands for lines left out).
 */
class DocsSnippetsTest {

    @Test
    void quotedCodeIsTheCodeOfTheFileItNames() throws IOException {
        List<String> problems = new ArrayList<>();
        int quoted = 0;
        for (MarkdownPage page : Docs.pages()) {
            for (MarkdownPage.CodeBlock block : page.blocksMarked(MarkdownPage.FROM)) {
                quoted++;
                String where = Docs.name(page) + ":" + block.line();
                Path source = Docs.ROOT.resolve(block.marker().substring(MarkdownPage.FROM.length()).trim()).normalize();
                if (!source.startsWith(Docs.ROOT) || !Files.isRegularFile(source)) {
                    problems.add(where + ": no such file in the repository: " + source);
                    continue;
                }
                List<String> sourceLines = Files.readAllLines(source, StandardCharsets.UTF_8).stream()
                        .map(String::strip).toList();
                int at = 0;
                for (String line : block.body().lines().map(String::strip).toList()) {
                    if (line.isEmpty() || line.equals("...")) {
                        continue;
                    }
                    int found = sourceLines.subList(at, sourceLines.size()).indexOf(line);
                    if (found < 0) {
                        problems.add(where + ": not a line of " + Docs.ROOT.relativize(source)
                                + " (after the lines quoted before it): " + line);
                        break;
                    }
                    at += found + 1;
                }
            }
        }
        assertThat(quoted).as("blocks quoting repository files").isGreaterThanOrEqualTo(5);
        assertThat(problems).isEmpty();
    }
}
