"""Storing the games of a player's upload: read and checked by `engine.game_import`, stored all or none.

A signed-in player sends `import_games`; every game of every file is read and
replayed under its rule before anything is stored, a game already imported
(the same fingerprint: rule, board, both names, moves) refuses the upload
naming the stored game, and the rest is one `apply`: one transaction, so
either every game of the upload is stored or none is. Each game is stored as
a game created by the uploader (`GameImported`): never rated, never a room,
readable through `get_game`, `/api/games/{id}` and reviewed like any other.

Reading replays every move (up to about 9,000 in an upload's 48,000 bytes: some 0.2 s of CPU on
the development machine), so it runs in a thread, away from the event loop's clocks. One upload is
checked and stored at a time on a node, so that two uploads of the same game cannot both pass the
duplicate check; between nodes, the fingerprint's unique index makes the second transaction fail
instead (the player is then answered `internal`, and nothing of that upload is kept).
"""

from __future__ import annotations

import asyncio

from engine.game_import import ImportedGame, UploadedFile, UploadError, UploadTerms, UploadTooBig, read_upload
from server.domain import GameId, GameImported, Records, Refusal, StoreRecord, new_game_id, utc_now
from wire.imports import ImportedGameModel, ImportGames


class Importer:
    """Imports uploads for the players of one server."""

    def __init__(self, storage: Records) -> None:
        self._storage = storage
        self._one_at_a_time = asyncio.Lock()
        """Held from the duplicate check to the commit (see the module's docstring)."""

    async def import_games(self, player: str, upload: ImportGames) -> list[ImportedGameModel]:
        """Store every game of `player`'s upload and describe them, in file order.

        Raises Refusal: `limit_reached` for an upload past a bound, `bad_request`
        for a file that cannot be read, an illegal move, or a game already stored.
        """
        games = await asyncio.to_thread(_read, upload)
        async with self._one_at_a_time:
            stored = await self._storage.imported_games_like([game.fingerprint for game in games])
            for game in games:
                if game.fingerprint in stored:
                    raise Refusal(
                        "bad_request",
                        f"{game.file}, game {game.index} is already imported, as game {stored[game.fingerprint]}: "
                        "nothing of this upload was stored",
                    )
            now = utc_now()
            records = [
                GameImported(
                    new_game_id(), game.record, game.source, game.file, player, now, game.fingerprint, upload.private
                )
                for game in games
            ]
            await self._storage.apply(list[StoreRecord](records))
        return [_model(record.game_id, game) for record, game in zip(records, games, strict=True)]


def _read(upload: ImportGames) -> list[ImportedGame]:
    files = [UploadedFile(file.name, file.text, file.format) for file in upload.files]
    terms = UploadTerms(upload.rule, upload.size, upload.black, upload.white)
    try:
        return read_upload(files, terms)
    except UploadTooBig as error:
        raise Refusal("limit_reached", f"{error}: nothing of this upload was stored") from error
    except UploadError as error:
        raise Refusal("bad_request", f"{error}: nothing of this upload was stored") from error


def _model(game_id: GameId, game: ImportedGame) -> ImportedGameModel:
    record = game.record
    return ImportedGameModel(
        game_id=game_id,
        file=game.file,
        index=game.index,
        source=game.source,
        rule=record.rule,
        size=record.size,
        black=record.black.name,
        white=record.white.name,
        moves=len(record.moves),
    )
