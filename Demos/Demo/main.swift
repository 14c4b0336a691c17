import Unidirectional
print("demo placeholder")
