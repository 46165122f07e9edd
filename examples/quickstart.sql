-- streamhouse quickstart: a primary-key table in the `paimon` catalog (./warehouse, or $WAREHOUSE).
--   ./bin/flink-sql -f examples/quickstart.sql
-- bin/flink-sql has already run: CREATE CATALOG paimon WITH ('type' = 'paimon', 'warehouse' = ...);
--                                USE CATALOG paimon;

-- INSERT returns when its job has committed; bounded reads finish instead of following the table.
SET 'table.dml-sync' = 'true';
SET 'execution.runtime-mode' = 'batch';

CREATE DATABASE IF NOT EXISTS shop;
USE shop;

-- Start from an empty table, so snapshot ids below are 1, 2, 3 on every run.
DROP TABLE IF EXISTS orders;

-- Partitioned by day, two buckets per partition; a newer row replaces the older one with the same key.
CREATE TABLE orders (
  dt STRING,
  order_id BIGINT,
  customer STRING,
  amount DECIMAL(10, 2),
  PRIMARY KEY (dt, order_id) NOT ENFORCED
) PARTITIONED BY (dt) WITH (
  'bucket' = '2',
  'merge-engine' = 'deduplicate',
  'write-buffer-size' = '64 mb'
);

-- Snapshot 1
INSERT INTO orders VALUES
  ('2026-11-28', 1, 'alice', 12.50),
  ('2026-11-28', 2, 'bob', 7.25),
  ('2026-11-29', 3, 'carol', 99.99);

-- Snapshot 2
INSERT INTO orders VALUES
  ('2026-11-29', 4, 'dave', 0.01);

-- Snapshot 3: bob's order 2 changes amount (same key, so it replaces the row of snapshot 1)
INSERT INTO orders VALUES
  ('2026-11-28', 2, 'bob', 70.25);

-- Latest state: four orders, order 2 at 70.25
SELECT * FROM orders ORDER BY dt, order_id;

-- Time travel: the table as of snapshot 1 (three orders, order 2 at 7.25)
SELECT * FROM orders /*+ OPTIONS('scan.snapshot-id' = '1') */ ORDER BY dt, order_id;

-- System table: one row per commit
SELECT snapshot_id, commit_kind, total_record_count FROM `orders$snapshots`;
