"""The messages of importing games (docs/protocol.md, "Importing games"; the `import` feature).

`import_games` carries a signed-in player's files of games (Piskvork `.psq`, SGF, move lists) and
says the rule, board and names of what the files leave out; `games_imported` answers with every
game stored, in file order. An upload is stored all or none: any problem is an `error` naming the
file, the game and the move, and nothing of that upload is kept.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from engine.game_import import MAX_NAME_LENGTH
from engine.types import Rule
from wire.ids import GameId
from wire.messages import ClientMessage, ServerMessage, WireModel

ImportFormatName = Literal["psq", "sgf", "moves"]
MAX_FILES = 20
"""The most files one `import_games` may carry (the games in them are bounded by the server)."""


class ImportFileModel(WireModel):
    """One uploaded file."""

    name: str = Field(min_length=1, max_length=200)
    """The file's name, as errors and `games_imported` name it; `.psq` and `.sgf` say its format."""
    text: str
    """The whole file, as text."""
    format: ImportFormatName | None = None
    """The file's format; null: from its name's suffix, else from its first characters, else `moves`."""


class ImportGames(ClientMessage):
    """Store the games of the player's files as imported games: never rated, created by the player."""

    type: Literal["import_games"] = "import_games"
    files: list[ImportFileModel] = Field(min_length=1, max_length=MAX_FILES)
    rule: Rule = Rule.FREESTYLE
    """The rule of `.psq` games, move lists and SGF games without RU (each move is checked under it)."""
    size: int = Field(default=15, ge=5, le=26)
    """The board of move lists."""
    black: str = Field(default="black", min_length=1, max_length=MAX_NAME_LENGTH)
    """The black player's name in move lists (a name as text, not an account)."""
    white: str = Field(default="white", min_length=1, max_length=MAX_NAME_LENGTH)
    """The white player's name in move lists."""
    private: bool = False
    """Whether only the player may read the games (as a private room's games)."""


class ImportedGameModel(WireModel):
    """One game an upload stored."""

    game_id: GameId
    file: str
    """The file it came from."""
    index: int
    """Its place in that file, from 1."""
    source: ImportFormatName
    rule: Rule
    size: int
    black: str
    white: str
    moves: int
    """How many moves it has."""


class GamesImported(ServerMessage):
    """The answer to `import_games`: every game it stored, in file order."""

    type: Literal["games_imported"] = "games_imported"
    games: list[ImportedGameModel]
