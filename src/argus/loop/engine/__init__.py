"""The loop's engine: one run, one view's convergence, and the services it calls.

``run.run_loop`` validates, bootstraps references and converges each view (``viewloop``);
``endings`` says how a view's loop ends, ``checkpoints`` where a run pauses for a person,
``rederive`` replays the committed iterations before a sign-off, and ``services`` names
everything the engine asks of the rest of Argus (``web_services`` backs it with the real parts).
"""
