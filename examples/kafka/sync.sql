-- The topics of a Kafka cluster whose records are Canal JSON, as the tables of database kafka.kafka.
CREATE CATALOG kafka WITH (
    'type' = 'kafka',
    'properties.bootstrap.servers' = '${BOOTSTRAP_SERVERS}',
    'value.format' = 'canal-json'
);

SHOW TABLES FROM kafka.kafka;

-- A topic's columns and primary key, as its first record gives them.
DESCRIBE kafka.kafka.shop_orders;

SET 'execution.checkpointing.interval' = '1s';

-- One topic into one table, as kafka_sync_table does.
CREATE TABLE IF NOT EXISTS paimon.ods.orders WITH ('bucket' = '1')
    AS TABLE kafka.kafka.shop_orders;

-- The topics named shop_*, each record into the table of database mirror that its record names,
-- as kafka_sync_database does.
CREATE DATABASE IF NOT EXISTS paimon.mirror WITH ('bucket' = '1')
    AS DATABASE kafka.kafka INCLUDING TABLE 'shop_.*';
