"""Cluster: the server as several nodes on one PostgreSQL (docs/architecture.md, "Several nodes").

`leases.py`: each node's lease in `cluster_nodes`, renewed about every second by the database's
clock; `ownership.py`: which node owns which room (`room_owners`), the fence every group commit of a
node passes, claiming the rooms of nodes whose lease expired. It imports `storage` (the record
writer's fence and its queries), `domain` and asyncpg; `app` puts it together with the rooms.
"""
