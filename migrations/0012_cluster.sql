-- Several nodes on one PostgreSQL (docs/architecture.md, "Several nodes"): each node holds a lease,
-- and each room is owned by one node. SQLite, one node, has the tables and never fills them.
--
-- A lease's expiry is in milliseconds since 1970 by the database's clock (not ISO text: it is
-- compared with that clock at every heartbeat and group commit). `epoch` is raised each time the
-- node joins (again): a node that lost its lease comes back with a new epoch and owns nothing it
-- had. A room's owner names the node and the epoch of its lease; the room's own `epoch` is raised
-- at every claim, and a node's writes to the room must name the node, the lease and the room epoch
-- it holds (the fence), so that an ex-owner's late write never lands.
CREATE TABLE cluster_nodes (
    node_id           TEXT PRIMARY KEY,
    epoch             BIGINT NOT NULL,
    lease_expires_ms  BIGINT NOT NULL,
    joined_at         TEXT NOT NULL
);

CREATE TABLE room_owners (
    room_id     TEXT PRIMARY KEY,
    node_id     TEXT NOT NULL,
    node_epoch  BIGINT NOT NULL,
    epoch       BIGINT NOT NULL
);

CREATE INDEX room_owners_by_node ON room_owners (node_id, node_epoch);
