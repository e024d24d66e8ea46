"""The commands about deleting records (pure: words in, a command or a CommandError out).

`delete GAME...` deletes one's own finished casual games against bots (an
admin's, any finished games); `client.commands` reads the first word of a
line and hands the rest to the parser here.
"""

from __future__ import annotations

from dataclasses import dataclass

from client.values import CommandError
from wire.messages import GameId
from wire.moderation import DELETE_LIMIT


@dataclass(frozen=True, slots=True)
class DeleteGamesCommand:
    game_ids: tuple[GameId, ...]


def parse_delete(arguments: list[str]) -> DeleteGamesCommand:
    """`delete GAME...`: 1 to DELETE_LIMIT game ids (each once)."""
    if not arguments:
        raise CommandError("delete needs the ids of the games to delete: 'delete GAME...'")
    game_ids = tuple(GameId(game_id) for game_id in dict.fromkeys(arguments))
    if len(game_ids) > DELETE_LIMIT:
        raise CommandError(f"delete takes at most {DELETE_LIMIT} games at once")
    return DeleteGamesCommand(game_ids)


def deleted_text(game_ids: list[GameId]) -> str:
    """What the player reads once games are deleted."""
    return f"deleted {len(game_ids)} game{'' if len(game_ids) == 1 else 's'}: {' '.join(game_ids)}"
