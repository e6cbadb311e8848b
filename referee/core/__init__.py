"""The value types and text tools every layer uses (layer 0; adapters may import it)."""
