"""What the client knows of the lobby: the seeks it has been told of, and its player's own (pure).

The server streams the lobby only to a connection that watches it; the
player's own seeks are known either way, from `seek_created`. Each method
takes one lobby message and returns what to tell the player (None: nothing
worth saying), so that `ClientCore` only routes the messages here.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from client.players_text import describe_lobby, describe_seek
from client.values import CommandError
from wire.messages import Lobby, LobbyChanges, SeekModel


@dataclass
class LobbyView:
    """The lobby as the client last heard of it."""

    name: str
    """The player's own name, to tell their seeks from others'."""
    watching: bool = False
    """Whether the player asked to follow the lobby (asked again after a reconnection)."""
    seeks: dict[str, SeekModel] = field(default_factory=dict)
    """The seeks waiting, by id, while watching."""
    mine: dict[str, SeekModel] = field(default_factory=dict)
    """The player's own seeks waiting, by id."""
    seq: int | None = None
    """From a server that sends batches (1.2): the number of the last batch the seeks include;
    None while there is no batch to follow (a 1.1 server, or a batch missed)."""

    def shown(self, message: Lobby) -> str:
        """The lobby as a watcher first sees it."""
        self.watching = True
        self.seeks = {seek.seek_id: seek for seek in message.seeks}
        self.seq = message.seq
        return describe_lobby(message.online, message.seeks)

    def unwatched(self) -> None:
        self.watching = False
        self.lost_track()

    def follows(self, batch: LobbyChanges) -> bool:
        """Whether a batch comes right after the last one applied; if not, one was missed and the
        lobby must be watched again (a batch with nothing to follow is simply not applied)."""
        return self.seq is None or batch.seq == self.seq + 1

    def lost_track(self) -> None:
        """Forget the seeks of others until a fresh snapshot (a batch was missed, or no longer watching)."""
        self.seq = None
        self.seeks.clear()

    def changed(self, batch: LobbyChanges) -> list[str]:
        """A batch of changes that follows the last one: what to tell the player of them."""
        if self.seq is None or not self.watching:
            return []
        self.seq = batch.seq
        texts = [self.added(seek) for seek in batch.added]
        texts += [self.removed(seek_id, cancelled_by_player=False) for seek_id in batch.removed]
        if batch.online is not None:
            texts.append(self.online(batch.online))
        return [text for text in texts if text]

    def online(self, count: int) -> str | None:
        """How many players are online, told while watching."""
        return f"{count} players online" if self.watching else None

    def created(self, seek: SeekModel) -> str:
        """One of the player's seeks waits in the lobby."""
        self.mine[seek.seek_id] = seek
        if seek.quick:
            return f"looking for an opponent ({describe_seek(seek)}); 'cancel' stops looking"
        return f"your seek is in the lobby: {describe_seek(seek)}; 'cancel' withdraws it"

    def added(self, seek: SeekModel) -> str | None:
        """A seek came into the lobby (the player's own is told by `created`)."""
        if not self.watching:
            return None  # sent before the server heard `unwatch_lobby`
        self.seeks[seek.seek_id] = seek
        if seek.by.name.lower() == self.name.lower():
            return None
        return f"new seek {describe_seek(seek)}"

    def removed(self, seek_id: str, cancelled_by_player: bool) -> str | None:
        """A seek left the lobby: taken, cancelled, or gone with its owner."""
        theirs = self.seeks.pop(seek_id, None)
        mine = self.mine.pop(seek_id, None)
        if mine is not None:
            return f"seek {seek_id} cancelled" if cancelled_by_player else f"your seek {seek_id} has left the lobby"
        if theirs is not None and self.watching:
            return f"seek {seek_id} ({theirs.by.name}) is gone"
        return None

    def seek_id_for(self, target: str) -> str:
        """The seek a player means by `target`: a seek id, or the name of the only player with a seek
        in the lobby under that name; else `target` as it is (the server says if there is no such seek).
        Raises CommandError when that player has several."""
        if target in self.seeks or target in self.mine:
            return target
        by_name = [seek.seek_id for seek in self.seeks.values() if seek.by.name.lower() == target.lower()]
        if len(by_name) > 1:
            raise CommandError(f"{target} has {len(by_name)} seeks: accept one by its id ({', '.join(by_name)})")
        return by_name[0] if by_name else target

    def connection_lost(self) -> str | None:
        """The connection dropped: the server withdraws the seeks of a player with no connection left."""
        self.seeks.clear()
        if not self.mine:
            return None
        self.mine.clear()
        return "your seeks were withdrawn with the connection: seek again once back"
