// What the page knows of tournaments: the list, and the one shown with its
// standings and boards. Pure, like store.js: the tournament page watches its
// tournament, and each `tournament_changes` batch is applied when it is the
// next one (`seq`); one that skips a number asks for a fresh snapshot.

export function initialTournaments() {
  return { list: null, shown: null, rewatch: null, missing: null }; // missing: the id the server does not know
}

/** The tournaments part of the state after a server message about tournaments. */
export function tournamentsReceived(tournaments, message, route) {
  switch (message.type) {
    case 'tournaments':
      return { ...tournaments, list: message.tournaments };
    case 'tournament':
      if (route.name !== 'tournament' || route.tournamentId !== message.tournament.tournament_id) return tournaments;
      return { ...tournaments, shown: { ...message.tournament, seq: message.seq ?? 0 }, rewatch: null };
    case 'tournament_changes':
      return changesReceived(tournaments, message);
    default:
      return tournaments;
  }
}

function changesReceived(tournaments, batch) {
  const shown = tournaments.shown;
  if (shown === null || shown.tournament_id !== batch.tournament_id || batch.seq <= shown.seq) return tournaments;
  if (batch.seq !== shown.seq + 1) return { ...tournaments, rewatch: shown.tournament_id };
  const boards = new Map(shown.pairings.map((board) => [`${board.round}/${board.board}`, board]));
  for (const board of batch.pairings) boards.set(`${board.round}/${board.board}`, board);
  const pairings = [...boards.values()]
    .filter((board) => board.round === batch.round || board.score === null)
    .sort((a, b) => a.round - b.round || a.board - b.board);
  return {
    ...tournaments,
    shown: {
      ...shown,
      seq: batch.seq,
      status: batch.status,
      round: batch.round,
      players: batch.players,
      standings: batch.standings,
      next_round_at: batch.next_round_at,
      pairings,
    },
  };
}

/** Whether I am among the tournament's players still playing. */
export function isEntered(tournament, name) {
  return tournament.standings.some((row) => row.name.toLowerCase() === name.toLowerCase() && !row.withdrawn);
}

/** The text of a board's result: 1-0, 0-1, ½-½, or a bye. */
export function boardResult(board) {
  if (board.white === null) return 'bye';
  if (board.score === null) return null;
  return board.score === 1 ? '1-0' : board.score === 0 ? '0-1' : '½-½';
}
