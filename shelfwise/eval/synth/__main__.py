"""``python -m shelfwise.eval.synth OUT --documents N``: write a synthetic shelf."""

from shelfwise.eval.synth import main

if __name__ == "__main__":
    main()
