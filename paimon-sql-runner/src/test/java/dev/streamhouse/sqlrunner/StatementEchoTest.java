package dev.streamhouse.sqlrunner;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import org.junit.jupiter.api.Test;

class StatementEchoTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final StatementEcho echo = new StatementEcho(
            List.of("SET 'k' = 'v';", "\n-- two\nSELECT 1,\n  2;"), out, StandardCharsets.UTF_8);
    private final OutputStream client = echo.clientOutput();
    private final OutputStream lineReader = echo.lineReaderOutput();

    @Test
    void printsEachStatementWhenTheLineReaderStartsOnItAndDropsTheLineReadersOwnEcho() throws IOException {
        write(client, "[INFO] Executing SQL from file.\n\n");
        write(lineReader, "Command history file path: /h\nFlink SQL> ");
        write(lineReader, "SET 'k' = 'v'");
        write(client, "[INFO] Execute statement succeeded.\n\n");
        write(lineReader, "Flink SQL> ");
        write(lineReader, "\n> -- two\n> SELECT 1,\n>   2");
        write(client, "+---+\n");
        write(lineReader, "Flink SQL> ");
        write(client, "\n");

        assertThat(out.toString(StandardCharsets.UTF_8)).isEqualTo(
                "[INFO] Executing SQL from file.\n\n"
                        + "Flink SQL> SET 'k' = 'v';\n"
                        + "[INFO] Execute statement succeeded.\n\n"
                        + "Flink SQL> -- two\n> SELECT 1,\n>   2;\n"
                        + "+---+\n"
                        + "\n");
    }

    @Test
    void credentialsInOptionsAreShownMasked() {
        assertThat(StatementEcho.format("CREATE CATALOG c WITH ('type' = 'paimon', 's3.access-key' = 'AKIA1',\n"
                + "  's3.secret-key'='it''s secret', 'warehouse' = 's3://b/w');"))
                .isEqualTo("Flink SQL> CREATE CATALOG c WITH ('type' = 'paimon', 's3.access-key' = '******',\n"
                        + ">   's3.secret-key'='******', 'warehouse' = 's3://b/w');\n");
        assertThat(StatementEcho.format("SET 'password' = 'pw';")).isEqualTo("Flink SQL> SET 'password' = '******';\n");
    }

    private static void write(OutputStream stream, String text) throws IOException {
        stream.write(text.getBytes(StandardCharsets.UTF_8));
        stream.flush();
    }
}
