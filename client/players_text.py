"""Sentences and tables about other players: seeks, who is online, the leaderboard, profiles, chat
(pure: messages in, text out).

Whatever someone else typed (a chat line) goes through `printable`, so
that it reaches the terminal as the text it is and never as a control
sequence.
"""

from __future__ import annotations

from client.text import describe_clock_setting, describe_games, format_rating, printable
from wire.messages import ChatMessage, LeaderboardEntryModel, OnlinePlayerModel, ProfileModel, SeekModel

HISTORY_SHOWN = 10
"""How many of a profile's latest ratings are listed."""


def describe_seek(seek: SeekModel) -> str:
    """One seek in a sentence: who, what game, which colour, for whom, and how to take it."""
    terms = [f"{seek.rule.value} {seek.size}x{seek.size}"]
    if seek.clock is not None:
        terms.append(f"clock {describe_clock_setting(seek.clock)}")
    terms.append("rated" if seek.rated else "casual")
    if seek.opening != "none":
        terms.append(f"opening {seek.opening} ({seek.by.name} places the first stones)")
    if seek.color != "random":
        terms.append(f"{seek.by.name} plays {seek.color}")
    if seek.rating_min is not None or seek.rating_max is not None:
        terms.append(f"for ratings {_rating_range(seek)}")
    if seek.quick:
        terms.append("quick pairing")
    return f"{seek.seek_id}: {seek.by.name} ({seek.by.rating}), {', '.join(terms)}"


def describe_lobby(online: int, seeks: list[SeekModel]) -> str:
    """What a lobby watcher sees first: the online count and the seeks waiting."""
    people = f"{online} player{'' if online == 1 else 's'} online"
    if not seeks:
        return f"lobby: {people}, no seeks waiting ('seek' offers a game; 'unwatch' stops watching)"
    lines = [f"lobby: {people}, {len(seeks)} seek{'' if len(seeks) == 1 else 's'} waiting ('accept SEEK' takes one):"]
    lines += [f"  {describe_seek(seek)}" for seek in seeks]
    return "\n".join(lines)


def describe_online(count: int, players: list[OnlinePlayerModel]) -> str:
    """Who is online, in name order, each idle or playing."""
    if not players:
        return "nobody is online"
    width = max(len(player.name) for player in players)
    lines = [f"{count} online:"]
    lines += [f"  {player.name:<{width}}  {player.rating:>5}  {player.status}" for player in players]
    if count > len(players):
        lines.append(f"  (and {count - len(players)} more)")
    return "\n".join(lines)


def describe_leaderboard(players: list[LeaderboardEntryModel]) -> str:
    """The leaderboard, best first; a provisional rating is marked `?`."""
    if not players:
        return "nobody is rated yet: play a rated game ('create rated', 'seek rated', 'pair rated')"
    names = [_entry_name(player) for player in players]
    width = max(len("player"), *(len(name) for name in names))
    lines = [f"{'#':>3}  {'player':<{width}}  {'rating':>6}  {'games':>5}"]
    for rank, (player, name) in enumerate(zip(players, names, strict=True), start=1):
        lines.append(f"{rank:>3}  {name:<{width}}  {format_rating(player.rating, player.rd):>6}  {player.games:>5}")
    return "\n".join(lines)


def describe_profile(profile: ProfileModel) -> str:
    """A player's rating, results, latest ratings and recent games."""
    rating = format_rating(profile.rating, profile.rd)
    kind = " (bot)" if profile.kind == "bot" else ""
    lines = [
        f"{profile.name}{kind}: rating {rating} (deviation {profile.rd}), {profile.games} rated "
        f"game{'' if profile.games == 1 else 's'}; {profile.wins} won, {profile.losses} lost, {profile.draws} drawn"
    ]
    if profile.history:
        latest = " ".join(str(point.rating) for point in profile.history[-HISTORY_SHOWN:])
        lines.append(f"rating after each of the last {min(len(profile.history), HISTORY_SHOWN)} rated games: {latest}")
    if profile.recent:
        lines += ["recent games:", describe_games(profile.recent)]
    return "\n".join(lines)


def describe_chat(message: ChatMessage, in_a_room: bool) -> str:
    """A chat line as `name: text`; the lobby's marked as such while the player is in a room."""
    where = "[lobby] " if message.room_id is None and in_a_room else ""
    return f"{where}{printable(message.from_)}: {printable(message.text)}"


def _entry_name(player: LeaderboardEntryModel) -> str:
    return f"{player.name} (bot)" if player.kind == "bot" else player.name


def _rating_range(seek: SeekModel) -> str:
    if seek.rating_max is None:
        return f"{seek.rating_min} and up"
    if seek.rating_min is None:
        return f"up to {seek.rating_max}"
    return f"{seek.rating_min}-{seek.rating_max}"
