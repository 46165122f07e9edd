-- Smoke test for bin/flink-sql that needs only Flink's built-in connectors (no paimon catalog):
--   ./bin/flink-sql -f examples/smoke.sql
SET 'table.dml-sync' = 'true';
SET 'execution.runtime-mode' = 'batch';

-- Ten generated orders: ids 1..10, amounts between 1 and 100.
CREATE TEMPORARY TABLE orders (
  id BIGINT,
  amount INT
) WITH (
  'connector' = 'datagen',
  'number-of-rows' = '10',
  'fields.id.kind' = 'sequence',
  'fields.id.start' = '1',
  'fields.id.end' = '10',
  'fields.amount.min' = '1',
  'fields.amount.max' = '100'
);

-- The print connector writes each row to standard output, prefixed with its identifier.
CREATE TEMPORARY TABLE printed (
  id BIGINT,
  amount INT
) WITH (
  'connector' = 'print',
  'print-identifier' = 'smoke'
);

INSERT INTO printed SELECT id, amount FROM orders WHERE id <= 3;

SELECT COUNT(*) AS orders, MIN(id) AS first_id, MAX(id) AS last_id,
       SUM(CASE WHEN amount BETWEEN 1 AND 100 THEN 1 ELSE 0 END) AS amounts_in_range
FROM orders;

SELECT k, UPPER(v) AS v, k * 10 AS k10
FROM (VALUES (1, 'one'), (2, 'two'), (3, 'three')) AS t(k, v)
WHERE k >= 2;
