// What the tournament pages ask of the server.

/** The intents of the tournament pages; `route` gives the page's route (the tournament shown). */
export function tournamentIntents(send, route) {
  const shown = () => route().tournamentId;
  return {
    createTournament: (form) => send(createTournamentRequest(form)),
    joinTournament: () => send({ type: 'join_tournament', tournament_id: shown() }),
    withdrawTournament: () => send({ type: 'withdraw_tournament', tournament_id: shown() }),
    manageTournament: (action) => send({ type: 'manage_tournament', tournament_id: shown(), action }),
    addTournamentBot: (bot) => send({ type: 'add_entrant', tournament_id: shown(), bot }),
  };
}

/**
 * The `create_tournament` request for the form's choices: {name, format, rounds, double, minutes,
 * clockMinutes, clockSeconds, rated}; each format takes only its own setting.
 */
export function createTournamentRequest(form) {
  const request = {
    type: 'create_tournament',
    name: form.name.trim(),
    format: form.format,
    clock: { initial_ms: Math.round(form.clockMinutes * 60_000), increment_ms: Math.round(form.clockSeconds * 1000) },
    rated: form.rated,
  };
  if (form.format === 'swiss') request.rounds = form.rounds;
  if (form.format === 'round_robin') request.cycles = form.double ? 2 : 1;
  if (form.format === 'arena') request.duration_s = Math.round(form.minutes * 60);
  return request;
}
