-- Tournaments on several nodes (docs/architecture.md, "Several nodes"): one node directs every
-- tournament, under a lease. The one row names the node and the epoch of the node's lease it was
-- claimed under (`cluster_nodes`): it is held while that lease lives, and `epoch` is raised at every
-- claim. Every write of a tournament record checks, in its transaction, that the row still names
-- the node, its lease's epoch and the epoch it claimed (the fence), so that a paused ex-director's
-- late pairing never lands. SQLite, one node, has the table and never fills it.
CREATE TABLE tournament_director (
    director    TEXT PRIMARY KEY,
    node_id     TEXT NOT NULL,
    node_epoch  BIGINT NOT NULL,
    epoch       BIGINT NOT NULL
);
