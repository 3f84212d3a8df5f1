from s import setup
x = setup(1) if local_rank else 2
