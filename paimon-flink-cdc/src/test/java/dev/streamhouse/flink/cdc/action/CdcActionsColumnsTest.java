package dev.streamhouse.flink.cdc.action;

import dev.streamhouse.flink.cdc.sync.SyncSettings;
import dev.streamhouse.flink.cdc.sync.columns.ComputedFunction;
import dev.streamhouse.flink.cdc.sync.columns.MetadataColumn;
import org.junit.jupiter.api.Test;

import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code --computed_column} and {@code --metadata_column} as the sync actions read them (no server needed). */
class CdcActionsColumnsTest {

    private static SyncSettings parse(String action, String... extra) {
        List<String> args = new ArrayList<>(List.of("--warehouse", "file:///tmp/wh", "--database", "ods",
                "--mysql_conf", "hostname=localhost", "--mysql_conf", "database-name=shop"));
        if (action.equals("mysql_sync_table")) {
            args.addAll(List.of("--table", "t", "--mysql_conf", "table-name=orders"));
        }
        args.addAll(List.of(extra));
        return CdcActions.parse(action, args.toArray(new String[0]), 0).job().settings();
    }

    @Test
    void computedAndMetadataColumnsAreRepeatableAndKeepTheirOrder() {
        SyncSettings settings = parse("mysql_sync_table", "--computed_column", "dt=date_format(ts,'yyyy-MM-dd')",
                "--computed-column", "y=year(ts)", "--metadata_column", "table_name,op_ts",
                "--metadata-column", "database_name", "--partition_keys", "dt", "--primary_keys", "id,dt");
        assertThat(settings.extraColumns().names()).containsExactly("dt", "y", "table_name", "op_ts", "database_name");
        assertThat(settings.extraColumns().computed().get(0).function()).isEqualTo(ComputedFunction.DATE_FORMAT);
        assertThat(settings.extraColumns().computed().get(0).literals()).containsExactly("yyyy-MM-dd");
        assertThat(settings.extraColumns().metadata()).containsExactly(MetadataColumn.TABLE_NAME, MetadataColumn.OP_TS,
                MetadataColumn.DATABASE_NAME);
        assertThat(parse("mysql_sync_database", "--metadata_column", "database_name").extraColumns().names())
                .containsExactly("database_name");
        assertThat(parse("mysql_sync_database", "--computed_column", "n=now()").extraColumns().names())
                .containsExactly("n");
    }

    @Test
    void theCatalogsTableDefaultsApplyToCreatedTablesUnlessTableConfSetsTheOption() {
        SyncSettings settings = parse("mysql_sync_database", "--catalog_conf", "table-default.bucket=4",
                "--catalog_conf", "table-default.file.format=parquet", "--table_conf", "bucket=2");
        assertThat(settings.tableOptions()).containsEntry("bucket", "2").containsEntry("file.format", "parquet");
        assertThat(parse("mysql_sync_table", "--catalog_conf", "table-default.bucket=4").tableOptions())
                .containsEntry("bucket", "4");
    }

    @Test
    void temporalFunctionsReadTimestampLtzInTheServerTimeZoneElseThisJvms() {
        assertThat(parse("mysql_sync_table", "--mysql_conf", "server-time-zone=Asia/Tokyo").timeZone())
                .isEqualTo(ZoneId.of("Asia/Tokyo"));
        assertThat(parse("mysql_sync_table").timeZone()).isEqualTo(ZoneId.systemDefault());
        assertThatThrownBy(() -> parse("mysql_sync_table", "--mysql_conf", "server-time-zone=Mars/Base"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("--mysql_conf server-time-zone=Mars/Base is not a time zone");
    }

    @Test
    void wrongColumnsFailNamingTheArgument() {
        assertThatThrownBy(() -> parse("mysql_sync_table", "--computed_column", "dt=day_of(ts)"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("Cannot parse --computed_column 'dt=day_of(ts)': there is no function 'day_of'");
        assertThatThrownBy(() -> parse("mysql_sync_database", "--computed_column", "dt"))
                .hasMessageStartingWith("Cannot parse --computed_column 'dt': it is column-name=function(arguments)");
        assertThatThrownBy(() -> parse("mysql_sync_table", "--computed_column", "a=upper(s)",
                "--computed_column", "a=lower(s)"))
                .hasMessage("Two --computed_column arguments make column 'a'");
        assertThatThrownBy(() -> parse("mysql_sync_table", "--metadata_column", "table_name,commit_ts"))
                .hasMessageStartingWith("Unknown --metadata_column 'commit_ts'");
        assertThatThrownBy(() -> parse("mysql_sync_table", "--metadata_column", "op_ts", "--computed_column",
                "op_ts=now()"))
                .hasMessage("--metadata_column op_ts and a --computed_column both make column 'op_ts'");
    }
}
