// Stepping through a sequence (a trace's events, a route's steps): first, back, play/pause,
// forward, last, at the speed of a slider. The buttons are PREFIX-first, PREFIX-back, ...

import { $, rate } from "./page.js";

export class Stepper {
  constructor(prefix, onStep) {
    this.prefix = prefix;
    this.onStep = onStep;  // called with the step to show, 1..length
    this.length = 0;
    this.step = 0;
    this.playing = false;
    this.frame = null;
    const button = (name) => $(`${prefix}-${name}`);
    this.buttons = ["first", "back", "play", "forward", "last"].map(button);
    button("first").addEventListener("click", () => this.by(-Infinity));
    button("back").addEventListener("click", () => this.by(-1));
    button("play").addEventListener("click", () => this.toggle());
    button("forward").addEventListener("click", () => this.by(1));
    button("last").addEventListener("click", () => this.by(Infinity));
    this.update();
  }

  load(length, step = 1) {
    this.stop();
    this.length = length;
    this.step = Math.min(step, length);
    if (length) this.onStep(this.step);
    this.update();
  }

  show(step) {
    this.step = Math.max(1, Math.min(this.length, step));
    this.onStep(this.step);
  }

  by(delta) {
    if (!this.length) return;
    this.stop();
    this.show(this.step + delta);
  }

  toggle() { return this.playing ? this.stop() : this.play(); }

  play() {
    if (!this.length) return;
    if (this.step >= this.length) this.show(1);
    this.playing = true;
    let last = performance.now();
    let owed = 1; // the next step at once
    const tick = (now) => {
      if (!this.playing) return;
      owed += ((now - last) / 1000) * rate($(`${this.prefix}-speed`));
      last = now;
      const steps = Math.floor(owed);
      if (steps > 0) {
        owed -= steps;
        this.show(this.step + steps);
      }
      if (this.step >= this.length) {
        this.stop();
        return;
      }
      this.frame = requestAnimationFrame(tick);
    };
    cancelAnimationFrame(this.frame);
    this.frame = requestAnimationFrame(tick);
    this.update();
  }

  stop() {
    this.playing = false;
    cancelAnimationFrame(this.frame);
    this.update();
  }

  update() {
    const play = this.buttons[2];
    play.innerHTML = this.playing ? "&#x275A;&#x275A; Pause" : "&#x25B6; Play";
    play.setAttribute("aria-label", this.playing ? "Pause" : "Play");
    for (const b of this.buttons) b.disabled = !this.length;
  }

  // Space, arrows, Home and End, as in watch mode; true when the key was used (Space only when
  // there is something to play, so that on the board it may pick a square instead).
  key(key) {
    if (key === " " && !this.length) return false;
    const actions = {
      " ": () => this.toggle(),
      ArrowLeft: () => this.by(-1),
      ArrowRight: () => this.by(1),
      Home: () => this.by(-Infinity),
      End: () => this.by(Infinity),
    };
    if (!actions[key]) return false;
    actions[key]();
    return true;
  }
}
