package dev.streamhouse.sqlrunner;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** Finds the result tables Flink's SQL client prints in tableau mode, by their column names. */
final class Tableau {
    private Tableau() {}

    /**
     * The rows of the first table in {@code output} whose header has exactly these columns, each row
     * as its trimmed cell values. Fails when there is no such table.
     */
    /** The rows of every result table with exactly these columns, in output order, concatenated. */
    static List<List<String>> rowsOfAll(String output, String... columns) {
        String[] lines = output.split("\r?\n");
        List<List<String>> all = new ArrayList<>();
        for (int i = 0; i < lines.length; i++) {
            if (cells(lines[i]).equals(Arrays.asList(columns))) {
                for (int j = i + 2; j < lines.length && lines[j].startsWith("|"); j++) {
                    all.add(cells(lines[j]));
                }
            }
        }
        return all;
    }

    static List<List<String>> rows(String output, String... columns) {
        String[] lines = output.split("\r?\n");
        for (int i = 0; i < lines.length; i++) {
            if (!cells(lines[i]).equals(Arrays.asList(columns))) {
                continue;
            }
            // header, then a +---+ border, then rows until the closing border
            List<List<String>> rows = new ArrayList<>();
            for (int j = i + 2; j < lines.length && lines[j].startsWith("|"); j++) {
                rows.add(cells(lines[j]));
            }
            return rows;
        }
        throw new AssertionError("No result table with columns " + Arrays.toString(columns) + " in:\n" + output);
    }

    private static List<String> cells(String line) {
        String trimmed = line.trim();
        if (!trimmed.startsWith("|") || !trimmed.endsWith("|") || trimmed.length() < 2) {
            return List.of();
        }
        List<String> cells = new ArrayList<>();
        for (String cell : trimmed.substring(1, trimmed.length() - 1).split("\\|", -1)) {
            cells.add(cell.trim());
        }
        return cells;
    }
}
