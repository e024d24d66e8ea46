// Short beeps made with WebAudio (no sound files). Browsers let a page make
// sound only after the person has touched or typed on it, so the audio
// context is created on the first such gesture.

export function createSound(target) {
  let context = null;
  const wake = () => {
    if (context === null && typeof AudioContext === 'function') context = new AudioContext();
    if (context !== null && context.state === 'suspended') context.resume();
  };
  target.addEventListener('pointerdown', wake, { capture: true });
  target.addEventListener('keydown', wake, { capture: true });

  function tone(frequency, startS, lengthS) {
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    oscillator.type = 'sine';
    oscillator.frequency.value = frequency;
    const start = context.currentTime + startS;
    gain.gain.setValueAtTime(0.0001, start);
    gain.gain.exponentialRampToValueAtTime(0.2, start + 0.01);
    gain.gain.exponentialRampToValueAtTime(0.0001, start + lengthS);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(start);
    oscillator.stop(start + lengthS + 0.02);
  }

  return {
    /** A stone was placed: a click, higher for the player's own stones. */
    stone(own) {
      if (context === null || context.state !== 'running') return;
      tone(own ? 880 : 660, 0, 0.09);
    },
    /** The game ended: two notes. */
    end() {
      if (context === null || context.state !== 'running') return;
      tone(660, 0, 0.15);
      tone(990, 0.16, 0.25);
    },
  };
}
