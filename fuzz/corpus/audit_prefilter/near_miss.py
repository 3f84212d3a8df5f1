import numpy as np
x = np.cumsum(a)  # cuda in a comment
s = "cu da"
