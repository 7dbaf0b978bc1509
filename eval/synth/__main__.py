"""``python -m eval.synth OUT --documents N``: write a synthetic shelf."""

from eval.synth import main

if __name__ == "__main__":
    main()
