/** Output not read yet, capped: when over the cap the oldest characters go, and a note says so. */
export class UnreadBuffer {
  private text = "";
  private dropped = 0;

  constructor(private readonly maxChars: number) {}

  push(text: string): void {
    this.text += text;
    if (this.text.length > this.maxChars) {
      const over = this.text.length - this.maxChars;
      this.dropped += over;
      this.text = this.text.slice(over);
    }
  }

  /** Everything since the previous call, with a note first when some was dropped. */
  take(): string {
    const note = this.dropped > 0 ? `[${this.dropped} earlier characters dropped]\n` : "";
    const text = note + this.text;
    this.text = "";
    this.dropped = 0;
    return text;
  }
}
