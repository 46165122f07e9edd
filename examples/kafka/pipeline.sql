-- The production pipeline of the Kafka page (docs/kafka.md): JSON events from a Kafka topic, with
-- the record's timestamp, partition and offset, an event time computed from the payload and a
-- watermark; each event enriched by a lookup join against a primary-key table that other jobs keep
-- updating; one statement set writing two tables. ${BOOTSTRAP_SERVERS} and ${WAREHOUSE} are
-- substituted by whoever runs it (the test that runs it does).

SET 'execution.checkpointing.interval' = '1 s';
SET 'table.dml-sync' = 'false';

CREATE CATALOG lake WITH ('type' = 'paimon', 'warehouse' = '${WAREHOUSE}');
USE CATALOG lake;
CREATE DATABASE IF NOT EXISTS shop;

-- The dimension: users and their tier, a primary-key table updated by other jobs.
CREATE TABLE IF NOT EXISTS shop.users (
    user_id BIGINT,
    name STRING,
    tier STRING,
    PRIMARY KEY (user_id) NOT ENFORCED
) WITH ('bucket' = '1');

-- Every event once, enriched.
CREATE TABLE IF NOT EXISTS shop.enriched_events (
    event_id STRING,
    user_id BIGINT,
    user_name STRING,
    tier STRING,
    action STRING,
    amount DECIMAL(10, 2),
    event_time TIMESTAMP_LTZ(3),
    kafka_time TIMESTAMP_LTZ(3),
    kafka_partition INT,
    kafka_offset BIGINT
) WITH ('bucket' = '-1');

-- Running totals per user.
CREATE TABLE IF NOT EXISTS shop.user_totals (
    user_id BIGINT,
    events BIGINT,
    amount DECIMAL(20, 2),
    last_event_time TIMESTAMP_LTZ(3),
    PRIMARY KEY (user_id) NOT ENFORCED
) WITH ('bucket' = '2', 'changelog-producer' = 'lookup');

CREATE TEMPORARY TABLE default_catalog.default_database.user_events (
    event_id STRING,
    user_id BIGINT,
    action STRING,
    amount DECIMAL(10, 2),
    ts BIGINT,
    kafka_time TIMESTAMP_LTZ(3) METADATA FROM 'timestamp' VIRTUAL,
    `partition` INT METADATA VIRTUAL,
    `offset` BIGINT METADATA VIRTUAL,
    event_time AS TO_TIMESTAMP_LTZ(ts, 3),
    proc_time AS PROCTIME(),
    WATERMARK FOR event_time AS event_time - INTERVAL '5' SECOND
) WITH (
    'connector' = 'kafka',
    'topic' = 'user_events',
    'properties.bootstrap.servers' = '${BOOTSTRAP_SERVERS}',
    'properties.group.id' = 'enrichment',
    'scan.startup.mode' = 'earliest-offset',
    'format' = 'json',
    'json.fail-on-missing-field' = 'false'
);

EXECUTE STATEMENT SET
BEGIN
INSERT INTO shop.enriched_events
SELECT e.event_id, e.user_id, u.name, COALESCE(u.tier, 'unknown'), e.action, e.amount, e.event_time,
       e.kafka_time, e.`partition`, e.`offset`
FROM default_catalog.default_database.user_events AS e
LEFT JOIN shop.users /*+ OPTIONS('lookup.continuous.discovery-interval' = '1 ms') */
    FOR SYSTEM_TIME AS OF e.proc_time AS u
    ON e.user_id = u.user_id;

INSERT INTO shop.user_totals
SELECT user_id, COUNT(*), SUM(amount), MAX(event_time)
FROM default_catalog.default_database.user_events
GROUP BY user_id;
END;
